import { releaseHolds, reserveEach } from '../credits/holds.ts';
import { isServiceError, ServiceError } from '../errors.ts';
import type { CallerRequest } from '../keys/caller.ts';
import { mapLimit } from '../map-limit.ts';
import type { BlobStore } from '../ports.ts';
import { FRAME_PRICE } from '../pricing/prices.ts';
import type { Settings } from '../settings.ts';
import type { Stores } from '../stores.ts';
import { outcomeOf } from '../video/load-video.ts';
import { loadVideoForPayer, type PaidLoadPorts } from '../video/paid-load.ts';
import { resolveVideoRef, type ResolveMediaPorts } from '../video/resolve-media.ts';
import { parseVideoOrMediaRef } from '../video/video-ref.ts';
import type { FrameJob } from '../work-queue.ts';
import { FRAME_URL_TTL_S, frameBlobKey, signedFrameUrl } from './frame-url.ts';
import { FRAME_COMMIT_GRACE_MS } from './frame-job.ts';
import type { StoredFrame } from './frame-store.ts';
import { DEFAULT_WIDTH, type CapturedFrames, type CaptureFramesInput, type Frame } from './schemas.ts';

const frameKey = (videoId: string, tMs: number, width: number) => `frame:${videoId}:${tMs}:${width}`;

/** Captures of one request in flight at once; the queue's FRAME_CONCURRENCY caps the whole instance. */
const PER_REQUEST_PARALLELISM = 4;

export interface FramePorts
  extends PaidLoadPorts,
    ResolveMediaPorts,
    Pick<Stores, 'frameStore' | 'ledger'>,
    FramePresentPorts {
  config: Pick<Settings, 'REQUEST_WAIT_MS' | 'DAILY_FREE_CREDITS' | 'FREE_LOOKUPS_PER_10_MIN'>;
}

interface FramePresentPorts {
  blobs: BlobStore;
  publicUrl: string;
  signingSecret: string;
}

type Captured = { ok: true; frame: StoredFrame; cached: boolean; charged: number } | { ok: false; error: ServiceError };

/** The video and times asked for, checked: one of t or timestamps, a video not live, every time within it. */
async function framesAskedFor(deps: FramePorts, req: CallerRequest, input: CaptureFramesInput) {
  parseVideoOrMediaRef(input, req.caller.accountId); // a malformed reference is reported first
  if ((input.t === undefined) === (input.timestamps === undefined)) {
    throw new ServiceError('INVALID_REQUEST', 'Give either t or timestamps (not both, not neither)');
  }
  const videoId = await resolveVideoRef(deps, input, req.caller.accountId);
  const times = input.timestamps ?? [input.t!];
  const width = input.width ?? DEFAULT_WIDTH;
  const video = await loadVideoForPayer(deps, req.caller.accountId, videoId, FRAME_PRICE);
  if (video.info.isLive)
    throw new ServiceError('VIDEO_LIVE', 'Frames of a stream in progress are not available; try after it ends');
  const duration = video.info.duration;
  for (const [i, t] of times.entries()) {
    if (duration > 0 && t >= duration) {
      const field = input.timestamps ? `timestamps.${i}` : 't';
      throw new ServiceError('INVALID_REQUEST', `${field}: ${t} s is past the end of the video (${duration} s)`);
    }
  }
  return { videoId, times, width };
}

/** One frame not stored yet, captured as a job (joined if another request runs it) and charged when stored. */
async function captureOne(deps: FramePorts, req: CallerRequest, job: FrameJob, deadline: number): Promise<Captured> {
  const { videoId, tMs: t, width } = job;
  for (let attempt = 0; ; attempt++) {
    try {
      const { value } = await outcomeOf(
        deps.workQueue.frame<{ frame: StoredFrame; chargedRequestId: string | null }>(
          job,
          frameKey(videoId, t, width),
          // Past the deadline the job stores and charges nothing; the grace lets a commit made just before it arrive.
          Math.max(0, deadline - Date.now()) + FRAME_COMMIT_GRACE_MS,
        ),
      );
      const charged = value.chargedRequestId === req.requestId ? FRAME_PRICE : 0;
      return { ok: true as const, frame: value.frame, cached: charged === 0, charged };
    } catch (err) {
      if (!isServiceError(err)) throw err;
      // We may have waited on another caller's job that failed for want of *their* credits (its message names
      // their balance): run our own, once, as fetchTranscript does.
      // Our own credits are still held for it (a caller that cannot pay never got this far).
      if (err.code === 'INSUFFICIENT_CREDITS' && attempt === 0 && job.holdId !== undefined) {
        if (await deps.ledger.isHeld(job.holdId)) continue;
      }
      return { ok: false as const, error: err };
    }
  }
}

/** The answer: every asked time (repeats included) presented or failed; all failed is the first failure thrown. */
async function framesAnswer(
  deps: FramePorts,
  req: CallerRequest,
  input: CaptureFramesInput,
  asked: { videoId: string; times: number[]; width: number },
  tMs: number[],
  unique: number[],
  captured: Captured[],
): Promise<CapturedFrames> {
  const { videoId, times, width } = asked;
  const byTime = new Map(unique.map((t, i) => [t, captured[i]!]));
  const outcomes = await Promise.all(
    tMs.map(async (t, i) => {
      const c = byTime.get(t)!;
      if (!c.ok) return { ok: false as const, t: times[i]!, error: c.error };
      return {
        ok: true as const,
        frame: await present(deps, videoId, times[i]!, t, width, c.frame, c.cached, input.includeBase64),
      };
    }),
  );

  const frames = outcomes.flatMap((o) => (o.ok ? [o.frame] : []));
  const failed = outcomes.flatMap((o) =>
    o.ok ? [] : [{ t: o.t, error: { code: o.error.code, message: o.error.message } }],
  );
  // All failed: answer with the (first) reason, as for any single operation.
  const firstFailure = outcomes.find((o) => !o.ok);
  if (frames.length === 0 && firstFailure && !firstFailure.ok) throw firstFailure.error;
  // What the ledger took for this request, not the sum of what the jobs said: a job retried after its first run
  // stored and charged the frame (its worker died before the outcome was recorded) finds it stored and names nobody.
  const creditsCharged = await deps.ledger.chargedFor(req.caller.accountId, req.requestId);
  return { videoId, frames, failed, creditsCharged };
}

/**
 * Still frames at the given times. Stored frames are free; the rest are captured as jobs and
 * charged 1 each when stored. A request that cannot afford every new frame fails up front.
 */
export async function captureFrames(
  deps: FramePorts,
  req: CallerRequest,
  input: CaptureFramesInput,
): Promise<CapturedFrames> {
  const asked = await framesAskedFor(deps, req, input);
  const { videoId, times, width } = asked;

  const tMs = times.map((t) => Math.round(t * 1000));
  const stored = await deps.frameStore.readMany(videoId, width, tMs);
  // A timestamp asked for more than once is captured and charged once; every copy answers with that frame.
  const unique = [...new Set(tMs)];
  const missing = unique.filter((t) => !stored.has(t));
  // Every new frame's credit is held before any is captured: all of them, or 402 and none.
  const holds = await reserveEach(
    deps,
    missing.map((t) => ({
      accountId: req.caller.accountId,
      amount: FRAME_PRICE,
      operation: 'frame',
      videoId,
      requestId: req.requestId,
      job: { queue: 'frames' as const, key: frameKey(videoId, t, width) },
    })),
    deps.config.DAILY_FREE_CREDITS,
  );
  const holdOf = new Map(missing.map((t, i) => [t, holds[i]!]));
  try {
    return await captureAll(deps, req, input, asked, tMs, unique, stored, holdOf);
  } finally {
    // What was not settled goes back: frames failed, captured by someone else's job, or found stored meanwhile. Past
    // the deadline (and its grace) no job stores or charges any more.
    await releaseHolds(deps, { holdIds: holds });
  }
}

async function captureAll(
  deps: FramePorts,
  req: CallerRequest,
  input: CaptureFramesInput,
  asked: { videoId: string; times: number[]; width: number },
  tMs: number[],
  unique: number[],
  stored: Map<number, StoredFrame>,
  holdOf: Map<number, number>,
): Promise<CapturedFrames> {
  const { videoId, width } = asked;
  // When this request stops waiting: a frame finished later is not stored or charged (its answer says failed, free).
  const deadline = Date.now() + deps.config.REQUEST_WAIT_MS;
  const captured = await mapLimit(unique, PER_REQUEST_PARALLELISM, async (t): Promise<Captured> => {
    const known = stored.get(t);
    if (known) return { ok: true as const, frame: known, cached: true, charged: 0 };
    const job: FrameJob = {
      videoId,
      tMs: t,
      width,
      accountId: req.caller.accountId,
      requestId: req.requestId,
      price: FRAME_PRICE,
      holdId: holdOf.get(t),
      deadline,
    };
    return captureOne(deps, req, job, deadline);
  });
  return framesAnswer(deps, req, input, asked, tMs, unique, captured);
}

async function present(
  deps: FramePresentPorts,
  videoId: string,
  t: number,
  tMs: number,
  width: number,
  f: StoredFrame,
  cached: boolean,
  includeBase64: boolean | undefined,
): Promise<Frame> {
  const frame: Frame = {
    t,
    width: f.width,
    height: f.height,
    mimeType: f.mimeType,
    bytes: f.bytes,
    url: deps.blobs.presignGet
      ? await deps.blobs.presignGet(f.blobKey ?? frameBlobKey(videoId, tMs, width), FRAME_URL_TTL_S)
      : signedFrameUrl(deps.publicUrl, deps.signingSecret, { videoId, tMs, width }),
    source: f.source,
    cached,
  };
  if (includeBase64) {
    const blob = await deps.blobs.get(f.blobKey ?? frameBlobKey(videoId, tMs, width));
    if (!blob) throw new ServiceError('FRAME_FAILED', 'The stored frame is missing; retry');
    frame.base64 = blob.bytes.toString('base64');
  }
  return frame;
}
