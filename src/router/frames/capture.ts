import { callerRequest } from '../context.ts';
import { captureFrames } from '../../domain/frames/capture-frames.ts';
import { CapturedFrames, CaptureFramesInput } from '../../domain/frames/schemas.ts';
import { keyedProcedure } from '../trpc.ts';
import { captureFramesMeta } from './capture.meta.ts';

export const captureFramesProcedure = keyedProcedure
  .meta(captureFramesMeta)
  .input(CaptureFramesInput)
  .output(CapturedFrames)
  .mutation(({ ctx, input }) => captureFrames(ctx.deps, callerRequest(ctx), input));
