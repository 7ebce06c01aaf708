import { DEFAULT_WIDTH, MAX_WIDTH, MIN_WIDTH } from '../domain/frames/schemas.ts';

/** Operations served by plain routes rather than through trpc-to-openapi (binary answers). */
export const EXTRA_REST_ROUTES = [{ method: 'GET', path: '/videos/{videoId}/frame' }];

export function extraPaths(): Record<string, any> {
  return {
    '/videos/{videoId}/frame': {
      get: {
        operationId: 'frames-image',
        tags: ['frames'],
        summary: 'A single frame, as an image',
        description: `The JPEG image of the video at \`t\` seconds, \`width\` pixels wide (${MIN_WIDTH}-${MAX_WIDTH}, default ${DEFAULT_WIDTH}). The body is the image itself (\`curl -o frame.jpg\` works); \`X-Credits-Charged\` says what it cost (1 when newly captured, 0 when stored) and \`X-Frame-Source\` whether it came from the stream or YouTube's storyboard. Errors are JSON in the usual shape.`,
        parameters: [
          { name: 'videoId', in: 'path', required: true, schema: { type: 'string', pattern: '^[A-Za-z0-9_-]{11}$' } },
          { name: 't', in: 'query', required: true, description: 'Seconds from the start, decimals allowed', schema: { type: 'number', minimum: 0 } },
          { name: 'width', in: 'query', required: false, schema: { type: 'integer', minimum: MIN_WIDTH, maximum: MAX_WIDTH, default: DEFAULT_WIDTH } },
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
        'x-error-codes': ['VIDEO_NOT_FOUND', 'VIDEO_AGE_RESTRICTED', 'VIDEO_MEMBERS_ONLY', 'VIDEO_PAID', 'VIDEO_REGION_BLOCKED', 'VIDEO_LIVE', 'VIDEO_UPCOMING', 'VIDEO_UNPLAYABLE', 'INSUFFICIENT_CREDITS', 'FRAME_FAILED', 'EXTRACTION_FAILED'],
      },
    },
  };
}
