import type { Deps } from '../../deps.ts';
import type { Caller } from '../keys/manage-keys.ts';
import { captureFrames } from './capture-frames.ts';
import type { SingleFrame, SingleFrameInput } from './schemas.ts';

/** One frame with its bytes: what MCP's image answer and GET /videos/{id}/frame need. */
export async function getSingleFrame(deps: Deps, req: { caller: Caller; requestId: string }, input: SingleFrameInput): Promise<SingleFrame> {
  const result = await captureFrames(deps, req, { ...input, timestamps: undefined, includeBase64: true });
  const frame = result.frames[0]!;
  return { ...frame, base64: frame.base64!, videoId: result.videoId, creditsCharged: result.creditsCharged };
}
