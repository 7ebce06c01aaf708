// The listing side of YouTube as the domain sees it; src/infra/youtube implements it with youtubei.js.
import type { ChannelMeta, ChannelTab, ListedVideo, PlaylistMeta } from './schemas.ts';
import type { ChannelRef } from './collection-ref.ts';

/** One page as YouTube served it; `continuation` is YouTube's own token for the next one (null at the end). */
export interface SourcePage<M> {
  meta: M | null;
  items: ListedVideo[];
  continuation: string | null;
}

export interface VideoLister {
  /** Throws ServiceError NOT_FOUND for a playlist YouTube does not know, EXTRACTION_FAILED on upstream failure. */
  playlist(playlistId: string, continuation?: string, signal?: AbortSignal): Promise<SourcePage<PlaylistMeta>>;
  /** The channel id a handle, /c/ or /user/ URL stands for. Throws NOT_FOUND. */
  resolveChannel(ref: ChannelRef, signal?: AbortSignal): Promise<string>;
  channel(
    channelId: string,
    tab: ChannelTab,
    continuation?: string,
    signal?: AbortSignal,
  ): Promise<SourcePage<ChannelMeta>>;
  search(query: string, continuation?: string, signal?: AbortSignal): Promise<SourcePage<never>>;
}
