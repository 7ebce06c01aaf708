// The meta of list.ts: its REST operation (OpenAPI), its MCP tool and its error codes.
import { watchListText } from '../mcp-text/watches.ts';
import type { Meta } from '../trpc.ts';

export const listWatchesMeta: Meta = {
  openapi: {
    method: 'GET',
    path: '/watches',
    tags: ['watches'],
    summary: 'The account’s watches',
    description: 'Every watch of the account, newest first, with its status, failures and next check. Free.',
  },
  mcp: {
    name: 'list_watches',
    description:
      'The watches of this account (id, what it watches, status, last error, next check). Free. Use get_watch for what one found.',
    readOnly: true,
    idempotent: true,
    text: watchListText,
  },
  errors: [],
};
