// The meta of history.ts: its REST operation (OpenAPI), its MCP tool and its error codes.
import { DEFAULT_HISTORY_LIMIT, MAX_HISTORY_LIMIT } from '../../domain/credits/credit-history.ts';
import type { Meta } from '../trpc.ts';

export const creditHistoryMeta: Meta = {
  openapi: {
    method: 'GET',
    path: '/credits/history',
    tags: ['credits'],
    summary: 'Credit history',
    description:
      `The caller’s charges, refunds and grants, newest first, ${DEFAULT_HISTORY_LIMIT} per page by default ` +
      `(at most ${MAX_HISTORY_LIMIT}); follow nextCursor for older ones. requestId shows what one request cost ` +
      '(its X-Request-Id), videoId what one video cost. Free.',
  },
  mcp: {
    name: 'get_credit_history',
    description:
      'Your Subtext credit history: each charge, refund and grant with its operation, video, request id and signed ' +
      'credits, newest first; pass nextCursor as cursor for older entries, requestId or videoId to see what one ' +
      'request or video cost. Free to call.',
    readOnly: true,
    idempotent: true,
    summarize: (out: { entries: unknown[]; nextCursor: string | null }) =>
      `${out.entries.length} entries${out.nextCursor ? '; more with cursor = nextCursor' : ''}.`,
  },
};
