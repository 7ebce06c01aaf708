import { fetchTranscript, segmentsJsonOf } from '../../domain/subtitles/fetch-transcript.ts';
import { GetSubtitlesInput, Transcript } from '../../domain/subtitles/schemas.ts';
import { MCP_PAGE_SEGMENTS, transcriptText } from '../mcp-text.ts';
import { keyedProcedure } from '../trpc.ts';
import { credits, SUBTITLES_PRICE } from '../../domain/pricing/prices.ts';

export const getSubtitles = keyedProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/subtitles',
      tags: ['subtitles'],
      summary: 'Get a timed transcript',
      description:
        'The transcript of a video as `segments` of `{start, end, text}` in seconds. Give `url` or `videoId`. ' +
        `${credits(SUBTITLES_PRICE)} when it must be extracted; free when stored (same video and track). ` +
        '`format` text, srt or vtt adds `content`, the segments rendered as that file (GET /videos/{videoId}/subtitles answers the file itself). ' +
        `Paging: \`offset\` (default 0) and \`limit\` (1-5000; default every segment here, ${MCP_PAGE_SEGMENTS} on MCP) select segments; \`segmentCount\` is always the whole transcript's and \`nextOffset\` the next page's offset (null at the end). Pages of a stored transcript are free.`,
    },
    mcp: {
      name: 'get_video_subtitles',
      description:
        'Transcript of a YouTube video with timestamps, as text lines "[h:mm:ss] text" you can cite, plus structured segments of {start, end, text} in seconds. Give url or videoId, and optionally lang (e.g. "en", "pt-BR"). ' +
        `Long transcripts come in pages of ${MCP_PAGE_SEGMENTS} segments (set limit, 1-5000, to change it): when the answer says segments remain, call again with offset=nextOffset. ` +
        `Optional format text|srt|vtt also returns that file as content. Costs ${credits(SUBTITLES_PRICE)} the first time a video/language is fetched; repeats and further pages are free.`,
      idempotent: true,
      openWorld: true,
      text: transcriptText,
    },
    errors: ['NO_SUBTITLES', 'VIDEO_NOT_FOUND', 'VIDEO_AGE_RESTRICTED', 'VIDEO_MEMBERS_ONLY', 'VIDEO_PAID', 'VIDEO_REGION_BLOCKED', 'VIDEO_LIVE', 'VIDEO_UPCOMING', 'VIDEO_UNPLAYABLE', 'INSUFFICIENT_CREDITS', 'EXTRACTION_FAILED'],
  })
  .input(GetSubtitlesInput)
  .output(Transcript)
  .mutation(async ({ ctx, input }) => {
    const out = await fetchTranscript(ctx.deps, { caller: ctx.caller, requestId: ctx.requestId }, { ...input, limit: input.limit ?? (ctx.surface === 'mcp' ? MCP_PAGE_SEGMENTS : undefined) });
    const json = ctx.out.splicesSegments ? segmentsJsonOf(out) : undefined;
    if (json === undefined) return out;
    // A whole stored transcript: the bridge sends its stored JSON text in place of the empty array (no parse,
    // no validation of 1,000 segments, no serialization).
    ctx.out.splicesSegments = false;
    ctx.out.segmentsJson = json;
    const { segments: _whole, ...rest } = out;
    return { ...rest, segments: [] };
  });
