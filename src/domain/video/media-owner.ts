// A direct media URL is often a private link (a presigned or ?token= URL), so what is made from it belongs to the
// account that gave it: its id is derived from that account and the URL (mediaIdOf), and every read by id checks
// that the caller's own id for the stored URL is the one asked for. Another account's id answers exactly as an
// unknown one does; the same URL given by another account is another id, extracted and paid for again.
import { ServiceError } from '../errors.ts';
import type { VideoStore } from './video-store.ts';
import { isMediaId, mediaIdOf } from './video-ref.ts';

const unknownMedia = (id: string) =>
  new ServiceError('VIDEO_NOT_FOUND', `Unknown media id ${id}: give its URL (url) instead`);

/** Whether `accountId` gave the URL stored under media id `videoId`; YouTube ids are everyone's. */
export async function ownsVideo(videos: VideoStore, accountId: string, videoId: string): Promise<boolean> {
  if (!isMediaId(videoId)) return true;
  const url = (await videos.read(videoId))?.info.media?.url;
  return !!url && mediaIdOf(url, accountId) === videoId;
}

/** VIDEO_NOT_FOUND (as for an id nobody named) unless the caller owns the media id. */
export async function assertOwnsVideo(videos: VideoStore, accountId: string, videoId: string): Promise<void> {
  if (!(await ownsVideo(videos, accountId, videoId))) throw unknownMedia(videoId);
}
