// A direct media URL becomes a video like any other: its id is `media-<hash of the URL>`, and its row in the video
// store holds what ffprobe said (with the URL), so transcripts, frames, jobs and stores work on the id. The URL is
// probed (through the SSRF guard) when a request names it and the stored row is missing or stale.
import type { LookupAdmission } from '../admission/lookup-admission.ts';
import { isServiceError, ServiceError } from '../errors.ts';
import type { MediaProbe, MediaProber, SourceVideo } from '../ports.ts';
import type { HotCache } from '../transcripts/hot-cache.ts';
import type { Stores } from '../stores.ts';
import type { VideoInfo } from './schemas.ts';
import { VIDEO_INFO_TTL_MS } from './video-store.ts';
import { parseVideoOrMediaRef } from './video-ref.ts';
import { assertOwnsVideo } from './media-owner.ts';

export interface ResolveMediaPorts extends Pick<Stores, 'videos'> {
  media: MediaProber;
  /** A probe is a free lookup: it runs before anything about the media is known, so before any charge. */
  lookupAdmission: LookupAdmission;
  hotCache: HotCache;
}

/** The video id a request names (`url` or `videoId`); a media URL is probed and stored first when needed. */
export async function resolveVideoRef(
  deps: ResolveMediaPorts,
  input: { url?: string | null; videoId?: string | null },
  accountId: string,
): Promise<string> {
  const ref = parseVideoOrMediaRef(input, accountId);
  if (!ref.mediaUrl) {
    await assertOwnsVideo(deps.videos, accountId, ref.videoId);
    return ref.videoId;
  }
  const stored = await deps.videos.read(ref.videoId);
  if (stored && stored.info.media?.url === ref.mediaUrl && Date.now() - stored.fetchedAt.getTime() < VIDEO_INFO_TTL_MS)
    return ref.videoId;
  let probe: MediaProbe;
  try {
    const mediaUrl = ref.mediaUrl;
    probe = await deps.lookupAdmission.run(accountId, { free: true }, () => deps.media.probe(mediaUrl));
  } catch (err) {
    // Often a mistyped YouTube link rather than a media URL: say both.
    if (isServiceError(err) && err.code === 'INVALID_REQUEST') {
      throw new ServiceError(
        'INVALID_REQUEST',
        `"${new URL(ref.mediaUrl).hostname}" is not a YouTube host, and as a direct media URL: ${err.message}`,
      );
    }
    throw err;
  }
  await deps.videos.store(ref.videoId, mediaVideo(ref.videoId, ref.mediaUrl, probe));
  deps.hotCache.forgetVideo(ref.videoId);
  return ref.videoId;
}

/** A media URL as a video: ffprobe's title tag (else the file name), duration and streams; no captions. */
export function mediaVideo(videoId: string, url: string, probe: MediaProbe): SourceVideo {
  const name = fileName(new URL(url)) || new URL(url).hostname;
  const live = probe.duration === null;
  const info: VideoInfo = {
    videoId,
    title: probe.title ?? name,
    duration: probe.duration ?? 0,
    thumbnail: null,
    thumbnails: [],
    publishDate: null,
    channelId: null,
    channelName: null,
    viewCount: null,
    isLive: live,
    isLiveContent: live,
    description: '',
    chapters: [],
    media: { url, kind: probe.kind, formatName: probe.formatName, bytes: probe.bytes, streams: probe.streams },
  };
  return { info, tracks: [] };
}

/** The URL's last path segment decoded; as it stands when its percent-encoding is broken (`a%ZZ.mp3`). */
function fileName(url: URL): string {
  const last = url.pathname.split('/').pop() ?? '';
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
}
