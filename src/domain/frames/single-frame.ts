import type { Caller } from '../keys/caller.ts';
import { captureFrames, type FramePorts } from './capture-frames.ts';
import type { SingleFrame, SingleFrameInput } from './schemas.ts';

/** One frame with its bytes: what MCP's image answer and GET /videos/{id}/frame need. */
export async function getSingleFrame(
  deps: FramePorts,
  req: { caller: Caller; requestId: string },
  input: SingleFrameInput,
): Promise<SingleFrame> {
  const result = await captureFrames(deps, req, { ...input, timestamps: undefined, includeBase64: true });
  const frame = result.frames[0]!;
  return { ...frame, base64: frame.base64!, videoId: result.videoId, creditsCharged: result.creditsCharged };
}
