// The meta of create.ts: its REST operation (OpenAPI), its MCP tool and its error codes.
import { BATCH_MAX_VIDEOS } from '../../domain/batches/schemas.ts';
import {
  BATCH_VIDEO_PRICES,
  credits,
  PER_STARTED_HOUR,
  STT_PRICE_PER_MINUTE,
  TRANSCRIPT_PRICE,
} from '../../domain/pricing/prices.ts';
import { batchText } from '../mcp-text/batches.ts';
import type { Meta } from '../trpc.ts';
import { BATCH_TRANSCRIPT_MODE, modesText } from '../../domain/transcripts/schemas.ts';
import { BATCH_ANSWER } from '../mcp-tasks.ts';

const P = BATCH_VIDEO_PRICES;
const T = P.transcript;

export const createBatchMeta: Meta = {
  openapi: {
    method: 'POST',
    path: '/batches',
    tags: ['batches'],
    summary: 'Start a batch: transcripts, articles or translations of many videos',
    description:
      `One operation over up to ${BATCH_MAX_VIDEOS} videos: give \`videos\` (ids or URLs), or one of \`playlist\`, \`channel\` (with \`channelTab\`) or \`search\` with \`maxVideos\` (default 20). ` +
      '`operation` is `{"type":"transcript","mode"?,"lang"?}` (the default; as POST /subtitles, with its own default `mode`: ' +
      `${modesText(BATCH_TRANSCRIPT_MODE)}; ` +
      'a video failing with NO_SUBTITLES is free, generate is 501 STT_NOT_CONFIGURED up front on a server without an engine, and each item says its `source`), `{"type":"article","lang","length"?,"sourceLang"?}` (as POST /summaries) or `{"type":"translation","targetLang","sourceLang"?}` (the captions as POST /subtitles with `mode` native, then POST /transcripts/translate; needs a language model, 501 otherwise). ' +
      'A video’s speech-to-text job is waited for inside the batch (no job to poll per video). ' +
      'Answers **202 Accepted** at once with the batch (status running) and `Location: /api/v1/batches/{id}`; each video runs as its own job on a capacity-limited queue. Follow it with GET /batches/{id}, or give `callbackUrl` to receive a signed `job.completed`/`job.failed` event when it ends. ' +
      `Credits: each video costs what its single-video request costs (transcript: ${credits(TRANSCRIPT_PRICE)} for captions, ${credits(STT_PRICE_PER_MINUTE)} per started minute of audio for speech-to-text, 0 when stored; article or translation: ${PER_STARTED_HOUR} per started hour of video, plus ${TRANSCRIPT_PRICE} when the transcript must be extracted, 0 when stored), charged only when the video succeeds; a video that fails gets back whatever its work charged on the way, and cancelled videos are free. ` +
      `A batch the balance cannot cover is refused with 402 before anything runs, counting per video: transcript ${T.native.perVideo} (mode native, the default: an upper bound), ${T.auto.perVideo} (mode auto: counted as captions; exact on a server without speech-to-text, where auto is captions only) or ${T.generate.perVideo} (mode generate: one minute of audio); article ${P.article.perVideo}, translation ${P.translation.perVideo} (one hour of video). ` +
      'Where a video’s cost depends on its length or on whether it has captions, unknown until it is loaded, the check counts these figures, not the worst case, and the video is checked again on its own before its work starts: one the balance cannot cover by then fails with INSUFFICIENT_CREDITS, uncharged. The message says how many videos the balance covers.',
  },
  mcp: {
    name: 'create_batch',
    description:
      `Work over many YouTube videos in the background (up to ${BATCH_MAX_VIDEOS}): give videos (ids or URLs), or playlist, channel (channelTab videos|shorts|live) or search with maxVideos (default 20). ` +
      'operation: {type:"transcript", mode?, lang?} (default; mode ' +
      `${modesText(BATCH_TRANSCRIPT_MODE, '')}), ` +
      '{type:"article", lang, length?, sourceLang?} or {type:"translation", targetLang, sourceLang?}. ' +
      'Returns a batch id at once; call get_batch every few seconds until status is no longer "running", then read what you need (get_video_subtitles, get_article: stored, so free). ' +
      'This is the cheap way to work over a channel or playlist: you never load the listing into your context. ' +
      `Costs per video that succeeds: transcript ${credits(TRANSCRIPT_PRICE)} (captions) or ${credits(STT_PRICE_PER_MINUTE)} per started minute of audio (speech-to-text); article or translation ${credits(PER_STARTED_HOUR)} per started hour (+${TRANSCRIPT_PRICE} if the transcript must be extracted); stored results are free; a video that fails keeps the charge of what was stored for it (e.g. its transcript, when the article or translation then fails), and is otherwise not charged. ` +
      `Refused if the balance cannot cover ${T.native.perVideo} (transcript), ${T.generate.perVideo} (transcript, mode generate) or ${P.article.perVideo} (article, translation) per video; a longer video the balance cannot cover later fails on its own, free.`,
    openWorld: true,
    text: batchText,
    task: BATCH_ANSWER,
  },
  accepted: true,
  errors: ['INSUFFICIENT_CREDITS', 'NOT_FOUND', 'EXTRACTION_FAILED', 'LLM_NOT_CONFIGURED', 'STT_NOT_CONFIGURED'],
};
