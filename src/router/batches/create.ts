import { createBatch } from '../../domain/batches/create-batch.ts';
import { Batch, BATCH_MAX_VIDEOS, CreateBatchInput } from '../../domain/batches/schemas.ts';
import { keyedProcedure } from '../trpc.ts';
import { createBatchDeps } from './batch-deps.ts';
import { batchText } from './batch-text.ts';

export const createBatchProcedure = keyedProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/batches',
      tags: ['batches'],
      summary: 'Start a batch: transcripts of many videos',
      description:
        `One operation (today: \`transcript\`, with optional \`lang\`) over up to ${BATCH_MAX_VIDEOS} videos: give \`videos\` (ids or URLs), or one of \`playlist\`, \`channel\` (with \`channelTab\`) or \`search\` with \`maxVideos\` (default 20). ` +
        'Answers at once with the batch (status running); each video runs as its own job on the extraction queue. Follow it with GET /batches/{id}, or give `callbackUrl` to receive a signed `job.completed`/`job.failed` event when it ends. ' +
        'Credits: each video costs what POST /subtitles costs (2, or 0 when the transcript is stored), charged only when it succeeds; failed and cancelled videos are free. ' +
        'A batch whose videos could cost more than the balance (2 per video) is refused with 402 before anything runs; the message says how many videos the balance covers.',
    },
    mcp: {
      name: 'create_batch',
      description:
        `Fetch the transcripts of many YouTube videos in the background (up to ${BATCH_MAX_VIDEOS}): give videos (ids or URLs), or playlist, channel (channelTab videos|shorts|live) or search with maxVideos (default 20). Optional operation {type:"transcript", lang}. ` +
        'Returns a batch id at once; call get_batch every few seconds until status is no longer "running", then read the transcripts you need with get_video_subtitles (stored, so free). ' +
        'This is the cheap way to work over a channel or playlist: you never load the listing into your context. Costs 2 credits per video that succeeds (0 if already stored); refused if the balance cannot cover 2 per video.',
      openWorld: true,
      text: batchText,
    },
    errors: ['INSUFFICIENT_CREDITS', 'NOT_FOUND', 'EXTRACTION_FAILED'],
  })
  .input(CreateBatchInput)
  .output(Batch)
  .mutation(({ ctx, input }) => createBatch(createBatchDeps(ctx.deps), { caller: ctx.caller, requestId: ctx.requestId, signal: ctx.signal }, input));
