// Playlist, channel and search listings: one YouTube page per call, behind an opaque cursor, cached briefly.
// A page fetched from YouTube costs LISTING_PAGE_PRICE, charged once it has been fetched; a cached page is free.
import type { AdmitOptions, BatchListing, LookupAdmission } from '../admission/lookup-admission.ts';
import { assertAffordable } from '../credits/charged-operation.ts';
import { chargeCredits } from '../credits/credits.ts';
import { coversPrice } from '../admission/covers-price.ts';
import type { CallerRequest } from '../keys/caller.ts';
import { parseChannelRef, parsePlaylistRef } from './collection-ref.ts';
import { decodeCursor, encodeCursor } from './cursor.ts';
import type { ListingCache } from './listing-cache.ts';
import type { SourcePage, VideoLister } from './ports.ts';
import { LISTING_PAGE_PRICE } from '../pricing/prices.ts';
import type { Stores } from '../stores.ts';
import type {
  ChannelMeta,
  ChannelPage,
  ListChannelInput,
  ListPlaylistInput,
  PlaylistMeta,
  PlaylistPage,
  SearchPage,
  SearchVideosInput,
} from './schemas.ts';

export interface ListingPorts {
  lister: VideoLister;
  listingCache: ListingCache;
  ledger: Stores['ledger'];
  dailyAllowance: number;
  /** Every page and handle fetched from YouTube is admitted first (src/domain/admission/). */
  lookupAdmission: LookupAdmission;
}

interface Fetched<M> {
  page: SourcePage<M>;
  nextCursor: string | null;
  cached: boolean;
  creditsCharged: number;
}

/** A page of `scope`: from the cache, else from YouTube and charged. */
async function fetchPage<M>(
  deps: ListingPorts,
  req: CallerRequest,
  scope: string,
  cursor: string | undefined,
  load: (continuation: string | undefined) => Promise<SourcePage<M>>,
): Promise<Fetched<M>> {
  const continuation = cursor ? decodeCursor(cursor, scope) : undefined;
  const key = `${scope}\n${continuation ?? ''}`;
  const next = (p: SourcePage<M>) => (p.continuation ? encodeCursor({ scope, continuation: p.continuation }) : null);
  const hit = deps.listingCache.get<M>(key);
  if (hit) return { page: hit, nextCursor: next(hit), cached: true, creditsCharged: 0 };
  await assertAffordable(deps, req.caller.accountId, LISTING_PAGE_PRICE, deps.dailyAllowance);
  const page = await deps.lookupAdmission.run(req.caller.accountId, listingPayer(deps, req), () => load(continuation));
  await chargeCredits(
    deps,
    { accountId: req.caller.accountId, amount: LISTING_PAGE_PRICE, operation: 'listing', requestId: req.requestId },
    deps.dailyAllowance,
  );
  deps.listingCache.set(key, page);
  return { page, nextCursor: next(page), cached: false, creditsCharged: LISTING_PAGE_PRICE };
}

export async function listPlaylist(
  deps: ListingPorts,
  req: CallerRequest,
  input: ListPlaylistInput,
): Promise<PlaylistPage> {
  const playlistId = parsePlaylistRef(input);
  const r = await fetchPage<PlaylistMeta>(deps, req, `playlist:${playlistId}`, input.cursor, (c) =>
    deps.lister.playlist(playlistId, c, req.signal),
  );
  return {
    playlist: input.cursor ? null : r.page.meta,
    items: r.page.items,
    nextCursor: r.nextCursor,
    cached: r.cached,
    creditsCharged: r.creditsCharged,
  };
}

/** A listing page's lookup, paid by the request: a free lookup when the balance does not cover every open one. */
function listingPayer(deps: ListingPorts, req: CallerRequest): AdmitOptions {
  const accountId = req.caller.accountId;
  return {
    payer: {
      requestId: req.requestId,
      covers: (requests) => coversPrice(deps, accountId, requests * LISTING_PAGE_PRICE, deps.dailyAllowance),
    },
  };
}

/**
 * The channel id behind a reference; resolving a handle is a lookup, cached like a page. `admit` says how it is
 * admitted: a free lookup, the request's paying lookup, or a batch's.
 */
async function channelIdOf(
  deps: Pick<ListingPorts, 'lister' | 'listingCache' | 'lookupAdmission'>,
  accountId: string,
  input: ListChannelInput,
  opts: { admit: AdmitOptions; signal?: AbortSignal },
): Promise<string> {
  const ref = parseChannelRef(input);
  if ('channelId' in ref) return ref.channelId;
  const key = `resolve\n${ref.path.toLowerCase()}`;
  const hit = deps.listingCache.get<string>(key);
  if (hit?.meta) return hit.meta;
  const channelId = await deps.lookupAdmission.run(accountId, opts.admit, () =>
    deps.lister.resolveChannel(ref, opts.signal),
  );
  deps.listingCache.set(key, { meta: channelId, items: [], continuation: null });
  return channelId;
}

export async function listChannel(
  deps: ListingPorts,
  req: CallerRequest,
  input: ListChannelInput,
): Promise<ChannelPage> {
  const tab = input.tab ?? 'videos';
  const channelId = await channelIdOf(deps, req.caller.accountId, input, {
    admit: listingPayer(deps, req),
    signal: req.signal,
  });
  const r = await fetchPage<ChannelMeta>(deps, req, `channel:${channelId}:${tab}`, input.cursor, (c) =>
    deps.lister.channel(channelId, tab, c, req.signal),
  );
  return {
    channel: input.cursor ? null : r.page.meta,
    tab,
    items: r.page.items,
    nextCursor: r.nextCursor,
    cached: r.cached,
    creditsCharged: r.creditsCharged,
  };
}

export async function searchVideos(
  deps: ListingPorts,
  req: CallerRequest,
  input: SearchVideosInput,
): Promise<SearchPage> {
  const r = await fetchPage<never>(deps, req, `search:${input.query}`, input.cursor, (c) =>
    deps.lister.search(input.query, c, req.signal),
  );
  return {
    query: input.query,
    items: r.page.items,
    nextCursor: r.nextCursor,
    cached: r.cached,
    creditsCharged: r.creditsCharged,
  };
}

/**
 * Up to `max` videos of a playlist, channel tab or search, walking pages (for batches; not charged as listing
 * pages: the batch pays per video), each page admitted as one of `listing`'s. Duplicates (a video listed twice) are kept once.
 */
export async function collectVideoIds(
  deps: Pick<ListingPorts, 'lister' | 'listingCache' | 'lookupAdmission'>,
  listing: BatchListing,
  source: { playlist?: ListPlaylistInput; channel?: ListChannelInput; search?: SearchVideosInput },
  max: number,
  signal?: AbortSignal,
): Promise<string[]> {
  const { accountId } = listing;
  let load: (c: string | undefined) => Promise<SourcePage<unknown>>;
  if (source.playlist) {
    const id = parsePlaylistRef(source.playlist);
    load = (c) => deps.lister.playlist(id, c, signal);
  } else if (source.channel) {
    // The batch has taken a free lookup already when its balance may not cover the listing.
    const id = await channelIdOf(deps, accountId, source.channel, { admit: { batch: listing }, signal });
    const tab = source.channel.tab ?? 'videos';
    load = (c) => deps.lister.channel(id, tab, c, signal);
  } else if (source.search) {
    const q = source.search.query;
    load = (c) => deps.lister.search(q, c, signal);
  } else {
    return [];
  }
  const ids = new Set<string>();
  let continuation: string | undefined;
  // Bounded: a page holds at least one video, and we stop at `max` or after 50 pages.
  for (let pages = 0; pages < 50 && ids.size < max; pages++) {
    const c = continuation;
    const page = await deps.lookupAdmission.run(accountId, { batch: listing }, () => load(c));
    for (const item of page.items) {
      if (ids.size >= max) break;
      ids.add(item.videoId);
    }
    if (!page.continuation || page.items.length === 0) break;
    continuation = page.continuation;
  }
  return [...ids];
}
