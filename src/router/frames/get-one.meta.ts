// The meta of get-one.ts: its REST operation (OpenAPI), its MCP tool and its error codes.
import { frameCaption } from '../mcp-text/frames.ts';
import { credits, FRAME_PRICE } from '../../domain/pricing/prices.ts';
import type { Meta } from '../trpc.ts';
import { frameLinks, frameResource } from '../mcp-resources/frames.ts';

export const getFrameMeta: Meta = {
  mcp: {
    name: 'get_video_frame',
    description:
      'A still frame of a YouTube video at time t (seconds, decimals allowed), returned as a JPEG image. Optional width in pixels (64-1920, default 640). Give url or videoId. ' +
      `Costs ${credits(FRAME_PRICE)} the first time a frame is captured; the same frame again is free.`,
    idempotent: true,
    openWorld: true,
    image: (f) => ({
      base64: f.base64,
      mimeType: f.mimeType,
      caption: frameCaption(f),
    }),
    links: frameLinks,
    resource: frameResource,
  },
};
