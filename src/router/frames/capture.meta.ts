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
    description:
      `JPEG stills of a video at \`t\` or up to ${MAX_TIMESTAMPS} \`timestamps\` (seconds), \`width\` pixels wide (default ${DEFAULT_WIDTH}), each with a signed URL valid 24 hours (and base64 with \`includeBase64\`). ` +
      `${credits(FRAME_PRICE)} per frame newly captured, stored frames free; frames that fail are listed in \`failed\`, uncharged.`,
  },
  errors: [...PLAYBACK_ERRORS, 'INSUFFICIENT_CREDITS', 'FRAME_FAILED', 'EXTRACTION_FAILED'],
};
