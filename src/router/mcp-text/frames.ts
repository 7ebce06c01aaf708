// MCP text for a frame answered as an image: the caption beside it.
import type { SingleFrame } from '../../domain/frames/schemas.ts';
import { chargedText } from './shared.ts';

export const frameCaption = (f: SingleFrame) =>
  `Frame of ${f.videoId} at ${f.t} s (${f.width}x${f.height}, ${f.source}); ${chargedText(f.creditsCharged)}. URL valid 24 h: ${f.url}`;
