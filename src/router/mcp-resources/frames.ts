// The frame resource (read through get_video_frame) and the link to it that a frame answer carries.
import { credits, FRAME_PRICE } from '../../domain/pricing/prices.ts';
import type { SingleFrame } from '../../domain/frames/schemas.ts';
import type { McpLink, McpResource } from '../mcp-projection.ts';
import { expandTemplate } from './uri-template.ts';

const TEMPLATE = 'subtext://frames/{videoId}/{t}';

export const frameLinks = (o: SingleFrame): McpLink[] => [
  {
    name: `frame-${o.videoId}-${o.t}`,
    title: `Frame of ${o.videoId} at ${o.t} s`,
    uri: expandTemplate(TEMPLATE, { videoId: o.videoId, t: o.t }),
    mimeType: o.mimeType,
  },
];

export const frameResource: McpResource = {
  name: 'frame',
  template: TEMPLATE,
  title: 'Frame of a video',
  mimeType: 'image/jpeg',
  description: `A JPEG still of a video at t seconds (decimals allowed), 640 pixels wide. Costs ${credits(FRAME_PRICE)} the first time that frame is captured; free after.`,
  input: ({ videoId, t: at = '' }) => {
    const t = Number(at);
    return at.trim() === '' || !Number.isFinite(t) ? 't must be a number of seconds' : { videoId, t };
  },
  content: (f: SingleFrame) => ({ mimeType: f.mimeType, blob: f.base64 }),
};
