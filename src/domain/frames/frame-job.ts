import { commitPaid } from '../credits/charged-operation.ts';
import { assertHeld } from '../credits/holds.ts';
import { ServiceError } from '../errors.ts';
import type { BlobStore, FrameGrabber, VideoSource } from '../ports.ts';
import type { Settings } from '../settings.ts';
import type { Stores, Transaction } from '../stores.ts';
import type { FrameJob } from '../work-queue.ts';
import type { StoredFrame } from './frame-store.ts';
import { frameBlobKey } from './frame-url.ts';

export interface FrameJobPorts extends Pick<Stores, 'frameStore' | 'ledger'> {
  youtube: VideoSource;
  frames: FrameGrabber;
  blobs: BlobStore;
  transaction: Transaction;
  config: Pick<Settings, 'DAILY_FREE_CREDITS'>;
}

/** Captures one frame, stores the image and charges for it in one transaction. Idempotent. */
export async function runFrameJob(
  deps: FrameJobPorts,
  job: FrameJob,
): Promise<{ frame: StoredFrame; chargedRequestId: string | null }> {
  const existing = (await deps.frameStore.readMany(job.videoId, job.width, [job.tMs])).get(job.tMs);
  if (existing) return { frame: existing, chargedRequestId: null };
  assertBeforeDeadline(job);
  // Paid for before ffmpeg or YouTube is asked anything: the requester's credits are still held.
  if (job.holdId !== undefined) await assertHeld(deps, job.holdId);

  const source = await deps.youtube.getFrameSource(job.videoId, job.width);
  const image = await deps.frames.capture(source, job.tMs / 1000, job.width);
  const blobKey = frameBlobKey(job.videoId, job.tMs, job.width);
  // The blob first: a blob without its row is harmless and is overwritten by the next capture.
  await deps.blobs.put(blobKey, image.bytes, image.mimeType);
  const frame: StoredFrame = {
    width: image.width,
    height: image.height,
    mimeType: image.mimeType,
    bytes: image.bytes.length,
    blobKey,
    source: source.kind,
  };

  // Charged to the requester only while it still waits: past its deadline its answer already reported the frame
  // failed and uncharged (SERVICE_BUSY), so the frame is neither stored nor charged (a stored frame is free to
  // everyone after, so it is paid exactly once or not kept). Not stored either when it can no longer pay (402).
  // Only whoever stores the frame first pays: a duplicate run of the job finds it stored and charges nobody.
  const stored = await commitPaid(
    deps.transaction,
    {
      accountId: job.accountId,
      amount: job.price,
      operation: 'frame',
      videoId: job.videoId,
      requestId: job.requestId,
      holdId: job.holdId,
    },
    deps.config.DAILY_FREE_CREDITS,
    (tx) => {
      assertBeforeDeadline(job); // inside the transaction: the waiter gives the commit FRAME_COMMIT_GRACE_MS more
      return tx.frameStore.storeIfAbsent(job.videoId, job.tMs, job.width, frame);
    },
    (isNew) => isNew,
  );
  return { frame, chargedRequestId: stored ? job.requestId : null };
}

/**
 * How long past its deadline a requester still waits for its frame job's outcome: a commit decided just before the
 * deadline (the check runs inside the charging transaction) reaches the requester, so its answer reports the charge.
 */
export const FRAME_COMMIT_GRACE_MS = 3000;

function assertBeforeDeadline(job: FrameJob): void {
  if (job.deadline !== undefined && Date.now() > job.deadline)
    throw new ServiceError(
      'SERVICE_BUSY',
      'The frame was not captured before the request stopped waiting; nothing was stored or charged. Retry shortly',
      5,
      { final: true },
    );
}
