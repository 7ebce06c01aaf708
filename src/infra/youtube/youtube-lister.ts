// Playlists, channel tabs and searches through youtubei.js: one InnerTube request per page, parsed by youtubei.js's
// own browse/search classes (Playlist, Channel, Search, Feed), continued with YouTube's continuation tokens.
import { Mixins, YT, YTNodes, type Innertube } from 'youtubei.js';
import { ServiceError } from '../../domain/errors.ts';
import type { ChannelRef } from '../../domain/listing/collection-ref.ts';
import { CHANNEL_ID_PATTERN } from '../../domain/listing/collection-ref.ts';
import type { SourcePage, VideoLister } from '../../domain/listing/ports.ts';
import type { ChannelMeta, ChannelTab, PlaylistMeta } from '../../domain/listing/schemas.ts';
import { createSessions } from './innertube-session.ts';
import { listedVideos, nextContinuation } from './map-listing.ts';
import { playlistFirstPageToken } from './playlist-continuation.ts';
import type { EgressOptions } from './create-youtube-source.ts';
import { createListingPacer } from './listing-pacer.ts';
import { createProxyPool } from './proxy-pool.ts';
import { createYoutubeFetch, YOUTUBE_ORIGIN } from './youtube-fetch.ts';

/** The web client's `params` that select a channel tab (as youtube.com sends them; NewPipe's ChannelTabs use the same). */
const TAB_PARAMS: Record<ChannelTab, string> = {
  videos: 'EgZ2aWRlb3PyBgQKAjoA',
  shorts: 'EgZzaG9ydHPyBgUKA5oBAA%3D%3D',
  live: 'EgdzdHJlYW1z8gYECgJ6AA%3D%3D',
};

export interface YoutubeListerOptions {
  baseUrl?: string;
  proxyUrls?: string[];
  cookie?: string;
  visitorData?: string;
  fetch?: typeof fetch;
  timeoutMs?: number;
  /** The same budgets and cool-downs as the video source: a listing page is a request from an identity too. */
  egress?: EgressOptions;
}

type Feed = InstanceType<typeof Mixins.Feed>;

/** youtubei.js failures as our codes: YouTube answers 400/404 for ids it does not know. */
function upstreamError(err: unknown, what: string): ServiceError {
  if (err instanceof ServiceError) return err;
  const message = err instanceof Error ? err.message : String(err);
  if (/status code (400|404)\b/.test(message))
    return new ServiceError('NOT_FOUND', `YouTube does not know this ${what}`);
  return new ServiceError('EXTRACTION_FAILED', `Could not list this ${what} from YouTube: ${message.slice(0, 200)}`);
}

export function createYoutubeLister(opts: YoutubeListerOptions = {}): VideoLister {
  const baseUrl = opts.baseUrl && opts.baseUrl !== YOUTUBE_ORIGIN ? opts.baseUrl : undefined;
  const proxies = createProxyPool(opts.proxyUrls);
  const ytFetch = createYoutubeFetch({ baseUrl, fetch: opts.fetch, timeoutMs: opts.timeoutMs, proxies });
  const sessions = createSessions({ fetch: ytFetch, cookie: opts.cookie, visitorData: opts.visitorData });
  const paced = createListingPacer(proxies.identities, opts.egress);

  /** One paced call on a plain session, its failures worded as `what`'s. */
  async function list<T>(what: string, work: (yt: Innertube) => Promise<T>): Promise<T> {
    try {
      return await paced(async () => work(await sessions.plain()));
    } catch (err) {
      throw upstreamError(err, what);
    }
  }

  return {
    async playlist(playlistId, continuation) {
      return list('playlist', (yt) => playlistPage(yt, playlistId, continuation));
    },
    async resolveChannel(ref: ChannelRef) {
      if ('channelId' in ref) return ref.channelId;
      return list('channel', (yt) => channelIdAt(yt, ref.path));
    },
    async channel(channelId, tab, continuation) {
      return list('channel', (yt) => channelPage(yt, channelId, tab, continuation));
    },
    async search(query, continuation) {
      return list('search', (yt) => searchPage(yt, query, continuation));
    },
  };
}

const browse = async (yt: Innertube, payload: Record<string, string>) =>
  yt.actions.execute('/browse', { ...payload, parse: true });

const page = <M>(feed: Feed, meta: M | null = null): SourcePage<M> => ({
  meta,
  items: listedVideos(feed),
  continuation: nextContinuation(feed),
});

async function playlistPage(
  yt: Innertube,
  playlistId: string,
  continuation: string | undefined,
): Promise<SourcePage<PlaylistMeta>> {
  const response = await browse(yt, { continuation: continuation ?? playlistFirstPageToken(playlistId) });
  if (continuation) return page<PlaylistMeta>(new Mixins.Feed(yt.actions, response, true));
  const playlist = new YT.Playlist(yt.actions, response, true);
  const meta: PlaylistMeta = {
    playlistId,
    title: String(playlist.info.title ?? '').trim(),
    author: playlist.info.author?.name?.replace(/^by\s+/i, '') || null,
    videoCountText: playlist.info.total_items && playlist.info.total_items !== 'N/A' ? playlist.info.total_items : null,
    url: `https://www.youtube.com/playlist?list=${playlistId}`,
  };
  const first = page(playlist, meta);
  if (!meta.title && first.items.length === 0)
    throw new ServiceError('NOT_FOUND', 'YouTube does not know this playlist');
  return first;
}

async function channelIdAt(yt: Innertube, path: string): Promise<string> {
  const endpoint = await yt.resolveURL(`https://www.youtube.com${path}`);
  const browseId = (endpoint.payload as { browseId?: unknown } | undefined)?.browseId;
  if (typeof browseId !== 'string' || !CHANNEL_ID_PATTERN.test(browseId))
    throw new ServiceError('NOT_FOUND', `${path} is not a YouTube channel`);
  return browseId;
}

async function channelPage(
  yt: Innertube,
  channelId: string,
  tab: ChannelTab,
  continuation: string | undefined,
): Promise<SourcePage<ChannelMeta>> {
  if (continuation) return page<ChannelMeta>(new Mixins.Feed(yt.actions, await browse(yt, { continuation }), true));
  const channel = new YT.Channel(yt.actions, await browse(yt, { browseId: channelId, params: TAB_PARAMS[tab] }), true);
  return page(channel, channelMeta(channel, channelId));
}

async function searchPage(yt: Innertube, query: string, continuation: string | undefined): Promise<SourcePage<never>> {
  if (continuation) {
    const response = await yt.actions.execute('/search', { continuation, parse: true });
    return page<never>(new Mixins.Feed(yt.actions, response, true));
  }
  return page<never>(await yt.search(query, { type: 'video' }));
}

function channelMeta(channel: InstanceType<typeof YT.Channel>, channelId: string): ChannelMeta {
  const m = channel.metadata as {
    title?: string;
    description?: string;
    vanity_channel_url?: string;
    avatar?: { url?: string }[];
    external_id?: string;
  };
  // The 2025-26 page header (pageHeaderViewModel) words the handle and counts as metadata rows:
  // [["@creativecommons"], ["8.84k subscribers", "258 videos"]].
  const header = channel.header as unknown as
    | { content?: { metadata?: { metadata_rows?: { metadata_parts?: { text?: unknown }[] }[] } } }
    | undefined;
  const parts = (header?.content?.metadata?.metadata_rows ?? []).flatMap((r) =>
    (r.metadata_parts ?? []).map((p) => String(p.text ?? '').trim()),
  );
  const vanity = m.vanity_channel_url?.match(/\/(@[^/?#]+)/)?.[1];
  const header4 = channel.header?.is(YTNodes.C4TabbedHeader) ? channel.header : undefined;
  return {
    channelId: m.external_id ?? channelId,
    name: m.title ?? '',
    handle: parts.find((p) => p.startsWith('@')) ?? (vanity ? decodeURIComponent(vanity) : null),
    description: m.description ?? '',
    subscriberCountText:
      parts.find((p) => /subscriber/i.test(p)) ?? (header4?.subscribers ? String(header4.subscribers) : null),
    avatar: m.avatar?.[0]?.url ?? null,
    url: `https://www.youtube.com/channel/${m.external_id ?? channelId}`,
  };
}
