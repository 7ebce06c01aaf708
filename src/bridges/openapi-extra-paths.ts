import { captureFramesMeta } from '../router/frames/capture.meta.ts';
import { getTranscriptMeta } from '../router/transcripts/get.meta.ts';
import { DEFAULT_WIDTH, MAX_WIDTH, MIN_WIDTH } from '../domain/frames/schemas.ts';
import { credits, FRAME_PRICE, TRANSCRIPT_PRICE } from '../domain/pricing/prices.ts';
import { FILE_FORMATS, FILE_TYPES } from '../domain/transcripts/formats.ts';
import { LANG_PATTERN, TRANSCRIPT_MODES } from '../domain/transcripts/schemas.ts';
import { DEFAULT_FILE_FORMAT } from './transcript-file-route.ts';

/** Operations served by plain routes rather than through trpc-to-openapi (answers that are not JSON), and the procedure each calls. */
export const EXTRA_REST_ROUTES = [
  { method: 'GET', path: '/videos/{videoId}/frame', procedure: 'frames.get' },
  { method: 'GET', path: '/videos/{videoId}/subtitles', procedure: 'subtitles.get' },
];

/** Fresh objects on every call: the OpenAPI build deletes `x-error-codes` from what it is given. */
export function extraPaths(): Record<string, any> {
  return { '/videos/{videoId}/frame': framePath(), '/videos/{videoId}/subtitles': transcriptFilePath() };
}

function framePath() {
  return {
    get: {
      operationId: 'frames-image',
      tags: ['frames'],
      summary: 'A single frame, as an image',
      description: `The JPEG image of the video at \`t\` seconds, \`width\` pixels wide (${MIN_WIDTH}-${MAX_WIDTH}, default ${DEFAULT_WIDTH}). The body is the image itself (\`curl -o frame.jpg\` works); \`X-Credits-Charged\` says what it cost (${FRAME_PRICE} when newly captured, 0 when stored) and \`X-Frame-Source\` whether it came from the stream or YouTube's storyboard. Errors are JSON in the usual shape.`,
      parameters: [
        { name: 'videoId', in: 'path', required: true, schema: { type: 'string', pattern: '^[A-Za-z0-9_-]{11}$' } },
        {
          name: 't',
          in: 'query',
          required: true,
          description: 'Seconds from the start, decimals allowed',
          schema: { type: 'number', minimum: 0 },
        },
        {
          name: 'width',
          in: 'query',
          required: false,
          schema: { type: 'integer', minimum: MIN_WIDTH, maximum: MAX_WIDTH, default: DEFAULT_WIDTH },
        },
      ],
      responses: {
        '200': {
          description: 'The frame',
          headers: {
            'X-Credits-Charged': { schema: { type: 'integer' } },
            'X-Frame-Source': { schema: { type: 'string', enum: ['stream', 'storyboard'] } },
          },
          content: { 'image/jpeg': { schema: { type: 'string', format: 'binary' } } },
        },
      },
      // The image route captures as POST /frames does, and the file route is POST /subtitles's procedure.
      'x-error-codes': captureFramesMeta.errors,
    },
  };
}

function transcriptFilePath() {
  return {
    get: {
      operationId: 'subtitles-file',
      tags: ['subtitles'],
      summary: 'Download a transcript as a file',
      description:
        'The whole transcript as a file: plain text, SubRip or WebVTT (UTF-8), with `Content-Disposition: attachment` (`curl -OJ` keeps its name). ' +
        `The same operation and price as POST /subtitles (${credits(TRANSCRIPT_PRICE)} when extracted, free when stored); \`X-Credits-Charged\` says what it cost. Errors are JSON in the usual shape.`,
      parameters: transcriptFileParameters(),
      responses: {
        '200': {
          description: 'The transcript file',
          headers: {
            'X-Credits-Charged': { schema: { type: 'integer' } },
            'Content-Disposition': {
              schema: { type: 'string' },
              description: 'attachment; filename="{videoId}.{lang}.{txt|srt|vtt}"',
            },
            'Content-Language': {
              schema: { type: 'string' },
              description: 'The language of the transcript answered',
            },
          },
          content: Object.fromEntries(
            FILE_FORMATS.map((f) => [`${FILE_TYPES[f].mediaType}; charset=utf-8`, { schema: { type: 'string' } }]),
          ),
        },
        '202': {
          description:
            'Speech-to-text is running: JSON with `status` queued or running and the `job` to poll (GET /api/v1/jobs/{id}), as POST /subtitles answers; ask for the file again once it succeeds (then free)',
          headers: { Location: { schema: { type: 'string' }, description: 'URL of the job resource' } },
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['status', 'videoId', 'job'],
                properties: {
                  status: { type: 'string', enum: ['queued', 'running'] },
                  videoId: { type: 'string' },
                  job: { type: 'object', required: ['id'], properties: { id: { type: 'string' } } },
                },
              },
            },
          },
        },
      },
      'x-error-codes': getTranscriptMeta.errors,
    },
  };
}

function transcriptFileParameters() {
  return [
    {
      name: 'videoId',
      in: 'path',
      required: true,
      description: 'The 11-character video id (a percent-encoded YouTube URL is accepted too)',
      schema: { type: 'string' },
    },
    {
      name: 'lang',
      in: 'query',
      required: false,
      description: 'Language wanted, as for POST /subtitles; omitted: the video’s default track',
      schema: { type: 'string', pattern: LANG_PATTERN.source },
    },
    {
      name: 'format',
      in: 'query',
      required: false,
      schema: { type: 'string', enum: [...FILE_FORMATS], default: DEFAULT_FILE_FORMAT },
    },
    {
      name: 'mode',
      in: 'query',
      required: false,
      description: 'auto (default), native or generate, as for POST /subtitles',
      schema: { type: 'string', enum: [...TRANSCRIPT_MODES] },
    },
    {
      name: 'words',
      in: 'query',
      required: false,
      description:
        'true: with format vtt, cues carry word timestamps as YouTube’s own VTT does (`hello<00:00:01.240><c> world</c>`) where the source timed its words (auto-captions, speech-to-text); free',
      schema: { type: 'boolean', default: false },
    },
    {
      name: 'chapters',
      in: 'query',
      required: false,
      description:
        'true: the video’s chapters as headings (format text: `## Title (m:ss)`; vtt: a `NOTE Chapter` before each chapter’s first cue); free',
      schema: { type: 'boolean', default: false },
    },
  ];
}
