// youtubei.js nodes of a browse/search page -> our ListedVideo. Listings come in several renderers: lockupViewModel
// (channel Videos/Live tabs, 2025-26), shortsLockupViewModel (Shorts tab), playlistVideoRenderer (playlists),
// videoRenderer (search). Each shows different facts; what a renderer does not show is null.
import { type Mixins, YTNodes } from 'youtubei.js';
import type { ListedVideo } from '../../domain/listing/schemas.ts';
import { VIDEO_ID_PATTERN } from '../../domain/video/video-ref.ts';

type Feed = InstanceType<typeof Mixins.Feed>;

/** "1:07:34" -> 4054; anything else (LIVE, SHORTS, upcoming) -> null. */
function clockToSeconds(text: string | undefined | null): number | null {
  if (!text || !/^\d+(:\d{1,2}){1,2}$/.test(text.trim())) return null;
  return text
    .trim()
    .split(':')
    .reduce((acc, part) => acc * 60 + Number(part), 0);
}

const RELATIVE_TIME = /\b(ago|Streamed|Premiered|Scheduled|Premieres)\b/i;

const str = (t: unknown): string => (t === undefined || t === null ? '' : String(t)).trim();
const firstUrl = (thumbs: unknown): string | null => {
  const list = Array.isArray(thumbs) ? (thumbs as { url?: string }[]) : [];
  return list[0]?.url ?? null;
};

function fromLockup(v: YTNodes.LockupView): ListedVideo | null {
  const image = v.content_image as unknown as { image?: unknown; overlays?: unknown[] } | null;
  let durationText: string | undefined;
  for (const o of image?.overlays ?? []) {
    const badges = (o as { badges?: { text?: string }[] }).badges ?? [];
    durationText ??= badges.map((b) => b.text).find((t) => clockToSeconds(t) !== null);
  }
  const rows =
    (v.metadata?.metadata as unknown as { metadata_rows?: { metadata_parts?: { text?: unknown }[] }[] })
      ?.metadata_rows ?? [];
  const parts = rows.flatMap((r) => (r.metadata_parts ?? []).map((p) => str(p.text))).filter(Boolean);
  return {
    videoId: v.content_id,
    title: str(v.metadata?.title),
    duration: clockToSeconds(durationText),
    published: parts.find((p) => RELATIVE_TIME.test(p)) ?? null,
    thumbnail: firstUrl(image?.image),
  };
}

function fromShort(v: YTNodes.ShortsLockupView): ListedVideo | null {
  const videoId = str((v.on_tap_endpoint?.payload as { videoId?: string } | undefined)?.videoId);
  return {
    videoId,
    title: str(v.overlay_metadata?.primary_text),
    duration: null,
    published: null,
    // youtubei.js 18 reads `thumbnail`, but the Shorts tab sends `thumbnailViewModel`: fall back to the image
    // i.ytimg.com serves for every video id.
    thumbnail: firstUrl(v.thumbnail) ?? `https://i.ytimg.com/vi/${videoId}/hqdefault.jpg`,
  };
}

function fromPlaylistVideo(v: YTNodes.PlaylistVideo): ListedVideo {
  const info = str(v.video_info)
    .split('•')
    .map((s) => s.trim());
  return {
    videoId: v.id,
    title: str(v.title),
    duration: v.duration?.seconds || null,
    published: info.find((p) => RELATIVE_TIME.test(p)) ?? null,
    thumbnail: firstUrl(v.thumbnails),
  };
}

function fromVideo(v: YTNodes.Video): ListedVideo {
  const published = str(v.published);
  return {
    videoId: v.video_id,
    title: str(v.title),
    duration: v.duration?.seconds || clockToSeconds(str(v.length_text)) || null,
    published: published || null,
    thumbnail: firstUrl(v.thumbnails),
  };
}

/** The videos of a page in order, each once; other items (channels, playlists, ads, shelves' headers) are skipped. */
export function listedVideos(feed: Feed): ListedVideo[] {
  const out: ListedVideo[] = [];
  const seen = new Set<string>();
  for (const node of feed.videos) {
    let item: ListedVideo | null = null;
    if (node.is(YTNodes.LockupView)) item = fromLockup(node);
    else if (node.is(YTNodes.ShortsLockupView)) item = fromShort(node);
    else if (node.is(YTNodes.PlaylistVideo)) item = fromPlaylistVideo(node);
    else if (node.is(YTNodes.Video)) item = fromVideo(node);
    if (!item || !VIDEO_ID_PATTERN.test(item.videoId) || seen.has(item.videoId)) continue;
    seen.add(item.videoId);
    out.push(item);
  }
  return out;
}

/**
 * YouTube's token for the page after this one: the continuation item that closes the page's list. Headers carry
 * continuation items of their own (sort chips); those are not the next page.
 */
export function nextContinuation(feed: Feed): string | null {
  const header: unknown[] = feed.page.header_memo?.getType(YTNodes.ContinuationItem) ?? [];
  for (const node of feed.memo.getType(YTNodes.ContinuationItem)) {
    if (header.includes(node)) continue;
    if (node.trigger && node.trigger !== 'CONTINUATION_TRIGGER_ON_ITEM_SHOWN') continue;
    const token = (node.endpoint?.payload as { token?: unknown } | undefined)?.token;
    if (typeof token === 'string' && token) return token;
  }
  return null;
}
