// The meta of get.ts: its REST operation (OpenAPI), its MCP tool and its error codes.
import { watchText } from '../mcp-text/watches.ts';
import type { Meta } from '../trpc.ts';

export const getWatchMeta: Meta = {
  openapi: {
    method: 'GET',
    path: '/watches/{id}',
    tags: ['watches'],
    summary: 'One watch and what it found',
    description:
      'The watch and its history, newest first: each new video (video_published) and its transcript step (transcript_ready, transcript_refused, transcript_failed with the reason). Another account’s watch is NOT_FOUND. Free.',
  },
  mcp: {
    name: 'get_watch',
    description: 'One watch by id (wat_...) with what its checks found: new videos and their transcripts. Free.',
    readOnly: true,
    idempotent: true,
    text: watchText,
  },
  errors: ['NOT_FOUND'],
};
