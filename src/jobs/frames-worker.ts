import type { Deps } from '../deps.ts';
import { commitCharged } from '../domain/credits/charged-operation.ts';
import type { FrameJob } from '../domain/frames/capture-frames.ts';
import { frameBlobKey } from '../domain/frames/frame-url.ts';
import { readStoredFrames, storeFrame, type StoredFrame } from '../domain/frames/frame-store.ts';

/** Captures one frame, stores the image and charges for it in one transaction. Idempotent. */
export function framesHandler(deps: Deps) {
  return async (job: FrameJob) => {
    const existing = (await readStoredFrames(deps.sql, job.videoId, job.width, [job.tMs])).get(job.tMs);
    if (existing) return { frame: existing, chargedRequestId: null };

    const source = await deps.youtube.getFrameSource(job.videoId, job.width);
    const image = await deps.frames.capture(source, job.tMs / 1000, job.width);
    const blobKey = frameBlobKey(job.videoId, job.tMs, job.width);
    // The blob first: a blob without its row is harmless and is overwritten by the next capture.
    await deps.blobs.put(blobKey, image.bytes, image.mimeType);
    const frame: StoredFrame = { width: image.width, height: image.height, mimeType: image.mimeType, bytes: image.bytes.length, blobKey, source: source.kind };

    if (Date.now() > job.deadline) {
      await storeFrame(deps.sql, job.videoId, job.tMs, job.width, frame);
      return { frame, chargedRequestId: null };
    }
    // Only whoever stores the frame first pays: a duplicate run of the job finds it stored and charges nobody.
    const stored = await commitCharged(
      deps.sql,
      { accountId: job.accountId, amount: job.price, operation: 'frame', videoId: job.videoId, requestId: job.requestId },
      deps.config.DAILY_FREE_CREDITS,
      (tx) => storeFrame(tx, job.videoId, job.tMs, job.width, frame),
      (isNew) => isNew,
    );
    return { frame, chargedRequestId: stored ? job.requestId : null };
  };
}
