// The meta of delete.ts: its REST operation (OpenAPI), its MCP tool and its error codes.
import type { Meta } from '../trpc.ts';

export const deleteWatchMeta: Meta = {
  openapi: {
    method: 'DELETE',
    path: '/watches/{id}',
    tags: ['watches'],
    summary: 'Stop a watch',
    description: 'Deletes the watch and its history; no more checks. Another account’s watch is NOT_FOUND. Free.',
  },
  mcp: {
    name: 'delete_watch',
    description: 'Stop and delete a watch by id (wat_...). Free.',
    idempotent: true,
  },
  errors: ['NOT_FOUND'],
};
