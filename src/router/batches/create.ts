import { createBatch } from '../../domain/batches/create-batch.ts';
import { Batch, BATCH_MAX_VIDEOS, CreateBatchInput } from '../../domain/batches/schemas.ts';
import { BATCH_VIDEO_PRICES, credits, PER_STARTED_HOUR, SUBTITLES_PRICE } from '../../domain/pricing/prices.ts';
import { keyedProcedure } from '../trpc.ts';
import { createBatchDeps } from './batch-deps.ts';
import { batchText } from './batch-text.ts';

const P = BATCH_VIDEO_PRICES;

export const createBatchProcedure = keyedProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/batches',
      tags: ['batches'],
      summary: 'Start a batch: transcripts, articles or translations of many videos',
      description:
        `One operation over up to ${BATCH_MAX_VIDEOS} videos: give \`videos\` (ids or URLs), or one of \`playlist\`, \`channel\` (with \`channelTab\`) or \`search\` with \`maxVideos\` (default 20). ` +
        '`operation` is `{"type":"transcript","lang"?}` (the default; as POST /subtitles with `mode` native: captions only), `{"type":"article","lang","length"?,"sourceLang"?}` (as POST /summaries) or `{"type":"translation","targetLang","sourceLang"?}` (the captions as POST /subtitles with `mode` native, then POST /transcripts/translate; needs a language model, 501 otherwise). ' +
        'Answers **202 Accepted** at once with the batch (status running) and `Location: /api/v1/batches/{id}`; each video runs as its own job on a capacity-limited queue. Follow it with GET /batches/{id}, or give `callbackUrl` to receive a signed `job.completed`/`job.failed` event when it ends. ' +
        `Credits: each video costs what its single-video request costs (transcript: ${credits(SUBTITLES_PRICE)}, 0 when stored; article or translation: ${PER_STARTED_HOUR} per started hour of video, plus ${SUBTITLES_PRICE} when the transcript must be extracted, 0 when stored), charged only when the video succeeds; a video that fails gets back whatever its work charged on the way, and cancelled videos are free. ` +
        `A batch the balance cannot cover is refused with 402 before anything runs, counting per video: transcript ${P.transcript.perVideo}, article ${P.article.perVideo}, translation ${P.translation.perVideo} (one hour of video; a longer video the balance can no longer cover fails on its own, uncharged); the message says how many videos the balance covers.`,
    },
    mcp: {
      name: 'create_batch',
      description:
        `Work over many YouTube videos in the background (up to ${BATCH_MAX_VIDEOS}): give videos (ids or URLs), or playlist, channel (channelTab videos|shorts|live) or search with maxVideos (default 20). ` +
        'operation: {type:"transcript", lang?} (default), {type:"article", lang, length?, sourceLang?} or {type:"translation", targetLang, sourceLang?}. ' +
        'Returns a batch id at once; call get_batch every few seconds until status is no longer "running", then read what you need (get_video_subtitles, get_article: stored, so free). ' +
        'This is the cheap way to work over a channel or playlist: you never load the listing into your context. ' +
        `Costs per video that succeeds: transcript ${credits(SUBTITLES_PRICE)}; article or translation ${credits(PER_STARTED_HOUR)} per started hour (+${SUBTITLES_PRICE} if the transcript must be extracted); stored results are free, failures cost nothing. ` +
        `Refused if the balance cannot cover ${P.transcript.perVideo} (transcript) or ${P.article.perVideo} (article, translation) per video.`,
      openWorld: true,
      text: batchText,
    },
    accepted: true,
    errors: ['INSUFFICIENT_CREDITS', 'NOT_FOUND', 'EXTRACTION_FAILED', 'LLM_NOT_CONFIGURED'],
  })
  .input(CreateBatchInput)
  .output(Batch)
  .mutation(async ({ ctx, input }) => {
    const batch = await createBatch(createBatchDeps(ctx.deps), { caller: ctx.caller, requestId: ctx.requestId, signal: ctx.signal }, input);
    // Async work created: REST answers 202 with where to follow it; tRPC and MCP return the same batch.
    ctx.out.status = 202;
    ctx.out.location = `/api/v1/batches/${batch.id}`;
    return batch;
  });
