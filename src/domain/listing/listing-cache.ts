import { createLruCache } from '../lru-cache.ts';
import type { SourcePage } from './ports.ts';

/** Listings change as channels upload: pages are kept only briefly. */
export const LISTING_CACHE_MINUTES = 5;
const LISTING_CACHE_TTL_MS = LISTING_CACHE_MINUTES * 60_000;

export type ListingCache = ReturnType<typeof createListingCache>;

export function createListingCache(maxBytes = 32 * 1024 * 1024) {
  const lru = createLruCache<SourcePage<unknown>>({ maxBytes });
  return {
    get: <M>(key: string) => lru.get(key) as SourcePage<M> | undefined,
    set: (key: string, page: SourcePage<unknown>) =>
      lru.set(key, page, JSON.stringify(page).length * 2, LISTING_CACHE_TTL_MS),
  };
}
