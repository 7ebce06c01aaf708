// The meta of create.ts: its REST operation (OpenAPI), its MCP tool and its error codes.
import { BATCH_MAX_VIDEOS } from '../../domain/batches/schemas.ts';
import { BATCH_VIDEO_PRICES } from '../../domain/pricing/prices.ts';
import { batchText } from '../mcp-text/batches.ts';
import type { Meta } from '../trpc.ts';
import { BATCH_ANSWER } from '../mcp-tasks.ts';

const P = BATCH_VIDEO_PRICES;
const _T = P.transcript;

export const createBatchMeta: Meta = {
  openapi: {
    method: 'POST',
    path: '/batches',
    tags: ['batches'],
    summary: 'Start a batch: transcripts, articles or translations of many videos',
    description:
      `One operation over up to ${BATCH_MAX_VIDEOS} videos: \`videos\` (ids or URLs), or \`playlist\`, \`channel\` or \`search\` with \`maxVideos\`; \`operation\` is a transcript (as POST /subtitles), an article (as POST /summaries) or a translation. ` +
      'Answers **202** at once with the batch to follow (GET /batches/{id}, or `callbackUrl`). Each video costs what its own request costs, when it succeeds; 402 up front when unaffordable.',
  },
  mcp: {
    name: 'create_batch',
    description:
      `Work over up to ${BATCH_MAX_VIDEOS} YouTube videos in the background, without loading a listing into context. Args: videos (ids or URLs), or playlist, channel or search with maxVideos; operation {type: transcript|article|translation, ...}. ` +
      'Returns a batch id: call get_batch every few seconds while status is "running", then read the results (stored, free). Each video costs what its own call would, if it succeeds.',
    openWorld: true,
    text: batchText,
    task: BATCH_ANSWER,
  },
  accepted: true,
  errors: ['INSUFFICIENT_CREDITS', 'NOT_FOUND', 'EXTRACTION_FAILED', 'LLM_NOT_CONFIGURED', 'STT_NOT_CONFIGURED'],
};
