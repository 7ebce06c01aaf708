import { SingleFrame, SingleFrameInput } from '../../domain/frames/schemas.ts';
import { getSingleFrame } from '../../domain/frames/single-frame.ts';
import { keyedProcedure } from '../trpc.ts';
import { frameCaption } from '../mcp-text/frames.ts';
import { credits, FRAME_PRICE } from '../../domain/pricing/prices.ts';

/** Served over REST by a plain route (GET /videos/{videoId}/frame answers the image bytes), and over MCP as an image. */
export const getFrameProcedure = keyedProcedure
  .meta({
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
    },
  })
  .input(SingleFrameInput)
  .output(SingleFrame)
  .query(({ ctx, input }) => getSingleFrame(ctx.deps, { caller: ctx.caller, requestId: ctx.requestId }, input));
