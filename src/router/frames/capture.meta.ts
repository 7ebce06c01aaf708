import { PLAYBACK_ERRORS } from '../error-table.ts';
// The meta of capture.ts: its REST operation (OpenAPI), its MCP tool and its error codes.
import { DEFAULT_WIDTH, MAX_TIMESTAMPS } from '../../domain/frames/schemas.ts';
import { credits, FRAME_PRICE } from '../../domain/pricing/prices.ts';
import type { Meta } from '../trpc.ts';

export const captureFramesMeta: Meta = {
  openapi: {
    method: 'POST',
    path: '/frames',
    tags: ['frames'],
    summary: 'Capture still frames',
    description: `Still images of a video at \`t\` or up to ${MAX_TIMESTAMPS} \`timestamps\` (seconds, decimals allowed, within the video), \`width\` pixels wide (default ${DEFAULT_WIDTH}, aspect kept), JPEG. Each frame comes with a signed URL valid for 24 hours, and inline as base64 when \`includeBase64\` is true. ${credits(FRAME_PRICE)} per frame newly captured; stored frames are free; a request that cannot afford every new frame fails with 402 before capturing anything. Frames that fail individually are listed in \`failed\` and not charged. When YouTube gives no stream, frames come from its low-resolution storyboards (\`source: storyboard\`). \`url\` may be a direct media URL (https, a video file or HLS playlist): ffmpeg reads it through the SSRF-guarded gateway.`,
  },
  errors: [...PLAYBACK_ERRORS, 'INSUFFICIENT_CREDITS', 'FRAME_FAILED', 'EXTRACTION_FAILED'],
};
