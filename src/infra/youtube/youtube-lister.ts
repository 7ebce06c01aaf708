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
import { createEgressPacer, type OutcomeKind } from '../../domain/youtube/egress.ts';
import type { EgressOptions } from './create-youtube-source.ts';
import { createProxyPool } from './proxy-pool.ts';
import { createYoutubeFetch, egressScope, YOUTUBE_ORIGIN } from './youtube-fetch.ts';

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
  const egress = opts.egress;
  const pacer = egress
    ? createEgressPacer(
        egress.store,
        {
          identities: proxies.identities,
          budgetPerHour: egress.budgetPerHour,
          cooldownBaseSeconds: egress.cooldownBaseSeconds,
          cooldownMaxSeconds: egress.cooldownMaxSeconds,
        },
        { onOutcome: egress.onOutcome },
      )
    : undefined;

  /** One listing call from one identity with budget left (SERVICE_BUSY when none), counted as the WEB client's. */
  async function paced<T>(work: () => Promise<T>): Promise<T> {
    if (!pacer) return work();
    const identity = await pacer.take();
    const report = (kind: OutcomeKind, reason?: string) =>
      pacer.report({ client: 'WEB', purpose: 'listing', identity, kind }, reason).catch(() => {});
    try {
      const out = await egressScope.run(identity, work);
      await report('served');
      return out;
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      // youtubei.js words HTTP failures as "... status code 429"; a 429 is about the identity and cools it.
      const kind: OutcomeKind = /status code 429\b/.test(message)
        ? 'rate_limited'
        : err instanceof ServiceError && err.code === 'NOT_FOUND'
          ? 'video'
          : 'error';
      await report(kind, message.slice(0, 300));
      throw err;
    }
  }

  const browse = async (yt: Innertube, payload: Record<string, string>) =>
    yt.actions.execute('/browse', { ...payload, parse: true });
  const page = <M>(feed: Feed, meta: M | null = null): SourcePage<M> => ({
    meta,
    items: listedVideos(feed),
    continuation: nextContinuation(feed),
  });

  return {
    async playlist(playlistId, continuation) {
      try {
        return await paced(async () => {
          const yt = await sessions.plain();
          const response = await browse(yt, { continuation: continuation ?? playlistFirstPageToken(playlistId) });
          if (continuation) return page<PlaylistMeta>(new Mixins.Feed(yt.actions, response, true));
          const playlist = new YT.Playlist(yt.actions, response, true);
          const meta: PlaylistMeta = {
            playlistId,
            title: String(playlist.info.title ?? '').trim(),
            author: playlist.info.author?.name?.replace(/^by\s+/i, '') || null,
            videoCountText:
              playlist.info.total_items && playlist.info.total_items !== 'N/A' ? playlist.info.total_items : null,
            url: `https://www.youtube.com/playlist?list=${playlistId}`,
          };
          const first = page(playlist, meta);
          if (!meta.title && first.items.length === 0)
            throw new ServiceError('NOT_FOUND', 'YouTube does not know this playlist');
          return first;
        });
      } catch (err) {
        throw upstreamError(err, 'playlist');
      }
    },

    async resolveChannel(ref: ChannelRef) {
      if ('channelId' in ref) return ref.channelId;
      try {
        return await paced(async () => {
          const yt = await sessions.plain();
          const endpoint = await yt.resolveURL(`https://www.youtube.com${ref.path}`);
          const browseId = (endpoint.payload as { browseId?: unknown } | undefined)?.browseId;
          if (typeof browseId !== 'string' || !CHANNEL_ID_PATTERN.test(browseId))
            throw new ServiceError('NOT_FOUND', `${ref.path} is not a YouTube channel`);
          return browseId;
        });
      } catch (err) {
        throw upstreamError(err, 'channel');
      }
    },

    async channel(channelId, tab, continuation) {
      try {
        return await paced(async () => {
          const yt = await sessions.plain();
          if (continuation)
            return page<ChannelMeta>(new Mixins.Feed(yt.actions, await browse(yt, { continuation }), true));
          const channel = new YT.Channel(
            yt.actions,
            await browse(yt, { browseId: channelId, params: TAB_PARAMS[tab] }),
            true,
          );
          return page(channel, channelMeta(channel, channelId));
        });
      } catch (err) {
        throw upstreamError(err, 'channel');
      }
    },

    async search(query, continuation) {
      try {
        return await paced(async () => {
          const yt = await sessions.plain();
          if (continuation) {
            const response = await yt.actions.execute('/search', { continuation, parse: true });
            return page<never>(new Mixins.Feed(yt.actions, response, true));
          }
          return page<never>(await yt.search(query, { type: 'video' }));
        });
      } catch (err) {
        throw upstreamError(err, 'search');
      }
    },
  };
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
