// Playlist and channel references in every form people paste. Hosts are matched exactly, as for video URLs.
import { ServiceError } from '../errors.ts';

const HOSTS = new Set(['youtube.com', 'www.youtube.com', 'm.youtube.com', 'music.youtube.com']);
const PLAYLIST_ID_PATTERN = /^[A-Za-z0-9_-]{10,64}$/;
export const CHANNEL_ID_PATTERN = /^UC[A-Za-z0-9_-]{22}$/;
const HANDLE_PATTERN = /^@[\p{L}\p{N}._-]{1,100}$/u;
const NAME_PATTERN = /^[\p{L}\p{N}._%-]{1,100}$/u;

/** A channel id, or a path YouTube must resolve to one (/@handle, /c/name, /user/name). */
export type ChannelRef = { channelId: string } | { path: string };

const invalid = (message: string) => new ServiceError('INVALID_REQUEST', message);
const clip = (s: string) => (s.length > 80 ? `${s.slice(0, 77)}...` : s);

function parseYoutubeUrl(raw: string): URL {
  const withScheme = /^[a-z][a-z0-9+.-]*:/i.test(raw) ? raw : `https://${raw.replace(/^\/\//, '')}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    throw invalid(`"${clip(raw)}" is not a valid URL`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw invalid(`URL scheme "${url.protocol}" is not supported`);
  if (url.username || url.password || url.port) throw invalid('YouTube URLs carry no user name, password or port');
  if (!HOSTS.has(url.hostname.toLowerCase().replace(/\.$/, '')))
    throw invalid(`"${clip(url.hostname)}" is not a YouTube host`);
  return url;
}

export function parsePlaylistRef(input: { url?: string; playlistId?: string }): string {
  if (input.url && input.playlistId) throw invalid('Give either url or playlistId, not both');
  if (input.playlistId) {
    if (!PLAYLIST_ID_PATTERN.test(input.playlistId)) throw invalid(`"${clip(input.playlistId)}" is not a playlist id`);
    return input.playlistId;
  }
  if (!input.url) throw invalid('Either url or playlistId is required');
  if (PLAYLIST_ID_PATTERN.test(input.url) && !input.url.includes('.')) return input.url;
  const list = parseYoutubeUrl(input.url).searchParams.get('list');
  if (!list) throw invalid('The URL has no list= parameter (expected /playlist?list=... or a watch URL with list=)');
  if (!PLAYLIST_ID_PATTERN.test(list)) throw invalid(`"${clip(list)}" is not a playlist id`);
  return list;
}

export function parseChannelRef(input: { url?: string; channelId?: string }): ChannelRef {
  if (input.url && input.channelId) throw invalid('Give either url or channelId, not both');
  const bare = input.channelId ?? (input.url && !input.url.includes('/') ? input.url : undefined);
  if (bare) {
    if (CHANNEL_ID_PATTERN.test(bare)) return { channelId: bare };
    if (HANDLE_PATTERN.test(bare)) return { path: `/${bare}` };
    throw invalid(`"${clip(bare)}" is neither a channel id (UC...) nor an @handle`);
  }
  if (!input.url) throw invalid('Either url or channelId is required');
  const segments = parseYoutubeUrl(input.url).pathname.split('/').filter(Boolean).map(decodeSegment);
  const [first, second] = segments;
  if (first === 'channel' && second && CHANNEL_ID_PATTERN.test(second)) return { channelId: second };
  if (first && HANDLE_PATTERN.test(first)) return { path: `/${first}` };
  if ((first === 'c' || first === 'user') && second && NAME_PATTERN.test(second))
    return { path: `/${first}/${second}` };
  throw invalid('Not a channel URL (expected /@handle, /channel/UC..., /c/name or /user/name)');
}

function decodeSegment(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
