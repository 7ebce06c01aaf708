import { PLAYBACK_ERRORS } from '../error-table.ts';
// The meta of get.ts: its REST operation (OpenAPI), its MCP tool and its error codes.
import { transcriptAnswerText } from '../mcp-text/transcripts.ts';
import { MCP_PAGE_SEGMENTS } from '../../domain/transcripts/schemas.ts';
import { credits, SPEECH_PRICE_PER_MINUTE, TRANSCRIPT_PRICE } from '../../domain/pricing/prices.ts';
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
      'The transcript of a video (`url` or `videoId`) as `segments` of `{start, end, text}` in seconds; `format`, `offset`/`limit`, `words` and `chapters` shape the answer. ' +
      `${credits(TRANSCRIPT_PRICE)} when captions must be extracted, free when stored. ` +
      `Speech-to-text (\`mode\`) answers **202** with a \`job\` to poll (GET /jobs/{id}) and costs ${credits(SPEECH_PRICE_PER_MINUTE)} per started minute of audio.`,
  },
  mcp: {
    app: true,
    name: 'get_video_subtitles',
    description:
      'Timestamped transcript of a YouTube video: "[h:mm:ss] text" lines to cite, and segments in seconds. Args: url or videoId, optional lang; ' +
      `pages of ${MCP_PAGE_SEGMENTS} segments (next: offset=nextOffset). Without captions it is transcribed in the background: on status "queued" or "running", poll get_job with job.id until "succeeded". ` +
      `${credits(TRANSCRIPT_PRICE)} the first time (speech-to-text: ${credits(SPEECH_PRICE_PER_MINUTE)} per started minute), then free.`,
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
