import { PLAYBACK_ERRORS } from '../error-table.ts';
// The meta of get.ts: its REST operation (OpenAPI), its MCP tool and its error codes.
import { transcriptAnswerText } from '../mcp-text/transcripts.ts';
import {
  DEFAULT_TRANSCRIPT_MODE,
  MAX_PAGE_SEGMENTS,
  MCP_PAGE_SEGMENTS,
  modesText,
} from '../../domain/transcripts/schemas.ts';
import { credits, STT_PRICE_PER_MINUTE, TRANSCRIPT_PRICE } from '../../domain/pricing/prices.ts';
import type { Meta } from '../trpc.ts';
import { transcriptLinks, transcriptResource } from '../mcp-resources/transcripts.ts';
import { JOB_STARTER } from '../mcp-tasks.ts';

export const getTranscriptMeta: Meta = {
  openapi: {
    method: 'POST',
    path: '/subtitles',
    tags: ['subtitles'],
    summary: 'Get a timed transcript',
    description:
      'The transcript of a video as `segments` of `{start, end, text}` in seconds. Give `url` or `videoId`. ' +
      `${credits(TRANSCRIPT_PRICE)} when captions must be extracted; free when stored (same video and track). ` +
      `\`mode\`: ${modesText(DEFAULT_TRANSCRIPT_MODE)}. ` +
      '`source` says where the transcript came from: `manual`, `auto-captions` (YouTube’s speech recognition), `speech-to-text` (ours, with `engine` and `model`) or `translation`. ' +
      `Speech-to-text runs as a job: the answer is **202** with \`status\` queued/running and \`job\`; poll GET /jobs/{id} until it succeeds (\`result.transcript\`). It costs ${credits(STT_PRICE_PER_MINUTE)} per started minute of audio, charged once when the transcript is stored (never for a failed job); 402 before any work when the balance cannot cover \`estimatedCredits\`. The price is measured on the audio actually decoded, never on the duration the media reports (a playlist’s or container’s own figure is only the estimate): the job decodes no more audio than the balance covers, and audio longer than that fails the job with 402 INSUFFICIENT_CREDITS before any of it reaches the engine (nothing charged, no partial transcript). Identical requests share one job. The transcript is then stored: later requests answer it at once, free. ` +
      '`callbackUrl` is called when a speech-to-text job this request started or joined ends (answers served at once do not call back). ' +
      '`format` text, srt or vtt adds `content`, the segments rendered as that file (GET /videos/{videoId}/subtitles answers the file itself). ' +
      `Paging: \`offset\` (default 0) and \`limit\` (1-${MAX_PAGE_SEGMENTS}; default every segment here, ${MCP_PAGE_SEGMENTS} on MCP) select segments; \`segmentCount\` is always the whole transcript's and \`nextOffset\` the next page's offset (null at the end). Pages of a stored transcript are free. ` +
      '`words: true` (free) adds each segment’s `words`, `{start, end, text, confidence?}` inside the segment and in order: from YouTube’s auto-captions when the track times its words, and from speech-to-text (Whisper-compatible server, pocketsphinx); `null` where the source has none (manual captions, translations), which `wordTiming` says. With `format` vtt, the cues carry word timestamps as YouTube’s own VTT does (`hello<00:00:01.240><c> world</c>`). ' +
      '`chapters: true` (free) adds `chapters`: the page’s segments grouped under the video’s chapters (those GET /videos/{videoId} answers), each `{title, start, end, offset, segments}`; null when the video has none. Format text puts each chapter’s title as a heading (`## Title (m:ss)`), vtt as a NOTE.',
  },
  mcp: {
    app: true,
    name: 'get_video_subtitles',
    description:
      'Transcript of a YouTube video with timestamps, as text lines "[h:mm:ss] text" you can cite, plus structured segments of {start, end, text} in seconds. Give url or videoId, and optionally lang (e.g. "en", "pt-BR"). ' +
      `Videos without captions are transcribed by speech-to-text (mode ${modesText(DEFAULT_TRANSCRIPT_MODE, '"')}): ` +
      'that runs in the background, so the answer has status "queued" or "running" and a job; call get_job with job.id every few seconds until status is "succeeded" and read result.transcript. ' +
      `Long transcripts come in pages of ${MCP_PAGE_SEGMENTS} segments (set limit, 1-${MAX_PAGE_SEGMENTS}, to change it): when the answer says segments remain, call again with offset=nextOffset. ` +
      'Optional words=true gives each segment its words with their own start/end (auto-captions and speech-to-text; null for manual captions, as wordTiming says), and word cues in format vtt; chapters=true groups the segments under the video’s chapters, with the chapter titles as headings in the text. Both are free. ' +
      `Optional format text|srt|vtt also returns that file as content. Costs ${credits(TRANSCRIPT_PRICE)} the first time a video/language is fetched (speech-to-text: ${credits(STT_PRICE_PER_MINUTE)} per started minute of the audio actually decoded, whatever length the media claims; audio longer than the balance covers fails the job with INSUFFICIENT_CREDITS before any is transcribed, nothing charged); repeats and further pages are free.`,
    idempotent: true,
    openWorld: true,
    text: transcriptAnswerText,
    links: transcriptLinks,
    resource: transcriptResource,
    task: JOB_STARTER,
  },
  acceptedAsJob: true,
  errors: [
    'NO_SUBTITLES',
    ...PLAYBACK_ERRORS,
    'INSUFFICIENT_CREDITS',
    'EXTRACTION_FAILED',
    'MEDIA_TOO_LARGE',
    'STT_NOT_CONFIGURED',
  ],
};
