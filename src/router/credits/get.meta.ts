// The meta of get.ts: its REST operation (OpenAPI), its MCP tool and its error codes.
import type { Meta } from '../trpc.ts';

export const getCreditsMeta: Meta = {
  openapi: {
    method: 'GET',
    path: '/credits',
    tags: ['credits'],
    summary: 'Credits balance',
    description:
      'The caller’s balance, what work under way holds of it and what is available, the daily free allowance and when it resets. Free.',
  },
  mcp: {
    name: 'get_credits',
    description:
      'Your Subtext credits: balance, credits held for work under way, available (what a new operation can spend), the free daily allowance left today, purchased credits and when the allowance resets. Free to call.',
    readOnly: true,
    idempotent: true,
  },
};
