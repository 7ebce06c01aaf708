import { z } from 'zod';
import { VideoOrMediaRefInput } from '../transcripts/schemas.ts';
import { FRAME_PRICE } from '../pricing/prices.ts';

export const MAX_TIMESTAMPS = 20;
export const MIN_WIDTH = 64;
export const MAX_WIDTH = 1920;
export const DEFAULT_WIDTH = 640;

const Seconds = z
  .number()
  .finite()
  .min(0, 'must be 0 or more seconds')
  .describe('Seconds from the start; decimals allowed');
const FrameWidth = z
  .number()
  .int()
  .min(MIN_WIDTH)
  .max(MAX_WIDTH)
  .describe(`Pixels wide (${MIN_WIDTH}-${MAX_WIDTH}, default ${DEFAULT_WIDTH}); the height keeps the aspect ratio`);

export const CaptureFramesInput = z.object({
  ...VideoOrMediaRefInput,
  t: Seconds.optional().describe('One timestamp, in seconds (decimals allowed); give t or timestamps'),
  timestamps: z
    .array(Seconds)
    .min(1)
    .max(MAX_TIMESTAMPS)
    .optional()
    .describe(
      `Up to ${MAX_TIMESTAMPS} timestamps, in seconds; one given more than once is captured and charged once, and each copy answers with that frame`,
    ),
  width: FrameWidth.optional(),
  includeBase64: z.boolean().optional().describe('Also return each image inline as base64 (default false)'),
});
export type CaptureFramesInput = z.infer<typeof CaptureFramesInput>;

export const Frame = z.object({
  t: z.number().describe('Seconds, as requested'),
  width: z.number().int(),
  height: z.number().int(),
  mimeType: z.string(),
  bytes: z.number().int(),
  url: z.string().describe('Signed URL of the image, valid for 24 hours; needs no headers (usable in <img>)'),
  base64: z.string().optional().describe('The image, when includeBase64 is true'),
  source: z
    .enum(['stream', 'storyboard'])
    .describe(
      'stream: a frame of the video; storyboard: YouTube’s low-resolution preview sprite, used when no stream could be read',
    ),
  cached: z.boolean(),
});
export type Frame = z.infer<typeof Frame>;

const FrameFailure = z.object({
  t: z.number(),
  error: z.object({ code: z.string(), message: z.string() }),
});

export const CapturedFrames = z.object({
  videoId: z.string(),
  frames: z.array(Frame).describe('Frames captured, in the order requested'),
  failed: z
    .array(FrameFailure)
    .describe(
      'Timestamps that could not be captured (not charged): one still capturing when the request stopped waiting is SERVICE_BUSY and is neither stored nor charged later; empty when all succeeded',
    ),
  creditsCharged: z
    .number()
    .int()
    .describe(
      `${FRAME_PRICE} per distinct frame newly captured for this request (what the credit ledger took); stored frames are free`,
    ),
});
export type CapturedFrames = z.infer<typeof CapturedFrames>;

export const SingleFrameInput = z.object({
  ...VideoOrMediaRefInput,
  t: Seconds.describe('Seconds from the start (decimals allowed)'),
  width: FrameWidth.optional(),
});
export type SingleFrameInput = z.infer<typeof SingleFrameInput>;

export const SingleFrame = Frame.extend({ base64: z.string(), videoId: z.string(), creditsCharged: z.number().int() });
export type SingleFrame = z.infer<typeof SingleFrame>;
