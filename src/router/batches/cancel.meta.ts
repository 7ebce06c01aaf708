// The meta of cancel.ts: its REST operation (OpenAPI), its MCP tool and its error codes.
import { batchText } from '../mcp-text/batches.ts';
import type { Meta } from '../trpc.ts';
import { BATCH_CANCELLER } from '../mcp-tasks.ts';

export const cancelBatchMeta: Meta = {
  openapi: {
    method: 'POST',
    path: '/batches/{id}/cancel',
    tags: ['batches'],
    summary: 'Cancel a batch',
    description:
      'Videos not started yet are cancelled and never charged; videos already running finish (and are charged if they succeed). The batch ends as cancelled once nothing runs; cancelling again changes nothing. A batch over a playlist, channel or search that ends so with no video charged pays the listing pages it fetched, as the listing operations do.',
  },
  mcp: {
    name: 'cancel_batch',
    description:
      'Stop a batch started with create_batch: videos not started are cancelled (free); running ones finish; a listing batch with no video charged pays its listing pages. Arg: id (bat_...).',
    idempotent: true,
    text: batchText,
    task: BATCH_CANCELLER,
  },
  errors: ['JOB_NOT_FOUND'],
};
