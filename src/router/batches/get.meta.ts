// The meta of get.ts: its REST operation (OpenAPI), its MCP tool and its error codes.
import { batchText } from '../mcp-text/batches.ts';
import type { Meta } from '../trpc.ts';
import { BATCH_READER } from '../mcp-tasks.ts';

export const getBatchMeta: Meta = {
  openapi: {
    method: 'GET',
    path: '/batches/{id}',
    tags: ['batches'],
    summary: 'A batch’s progress and results',
    description:
      'Counts (queued, running, succeeded, failed, cancelled), `progress`, credits charged so far, and per video its status, result (language, segment count; the transcript itself is free from POST /subtitles) or error code and message. ' +
      '`webhooks` lists the deliveries to `callbackUrl` with every attempt. Only the account that started it can see it (JOB_NOT_FOUND otherwise). Free.',
  },
  mcp: {
    name: 'get_batch',
    description:
      'Progress of a batch started with create_batch: counts, credits charged, and one line per finished video (ok with segment count, or the error). Arg: id (bat_...). Free; poll every few seconds while status is "running".',
    readOnly: true,
    text: batchText,
    task: BATCH_READER,
  },
  errors: ['JOB_NOT_FOUND'],
};
