import type { Deps } from '../deps.ts';
import { runFrameJob } from '../domain/frames/frame-job.ts';
import { FramePayload } from './payloads.ts';

/** The frames queue's handler (src/domain/frames/frame-job.ts does the work). */
export function framesHandler(deps: Deps) {
  return (data: unknown) => runFrameJob(deps, FramePayload.parse(data));
}
