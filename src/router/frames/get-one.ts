import { callerRequest } from '../context.ts';
import { SingleFrame, SingleFrameInput } from '../../domain/frames/schemas.ts';
import { getSingleFrame } from '../../domain/frames/single-frame.ts';
import { keyedProcedure } from '../trpc.ts';
import { getFrameMeta } from './get-one.meta.ts';

/** Served over REST by a plain route (GET /videos/{videoId}/frame answers the image bytes), and over MCP as an image. */
export const getFrameProcedure = keyedProcedure
  .meta(getFrameMeta)
  .input(SingleFrameInput)
  .output(SingleFrame)
  .query(({ ctx, input }) => getSingleFrame(ctx.deps, callerRequest(ctx), input));
