// MCP text for watches: what is watched and how it stands, then what its checks found, one line each.
import type { Watch, WatchList, WatchTarget, WatchWithHistory } from '../../domain/watches/schemas.ts';

function targetText(t: WatchTarget): string {
  if (t.channel) return `channel ${t.channel.channelId ?? t.channel.url} (${t.channel.tab ?? 'videos'})`;
  if (t.playlist) return `playlist ${t.playlist.playlistId ?? t.playlist.url}`;
  return `search "${t.search?.query}"`;
}

function line(w: Watch): string {
  const state =
    w.status === 'paused'
      ? `paused: ${w.pausedReason}`
      : `active, every ${w.intervalSeconds} s, next check ${w.nextCheckAt}`;
  const extra = [w.transcripts ? 'fetches transcripts' : null, w.lastError ? `last error: ${w.lastError}` : null];
  return `${w.id}: ${targetText(w.target)}; ${state}${extra
    .filter(Boolean)
    .map((x) => `; ${x}`)
    .join('')}`;
}

export function watchText(w: WatchWithHistory): string {
  const history = w.history.map(
    (e) => `- ${e.createdAt} ${e.kind} ${e.videoId}${e.title ? ` "${e.title}"` : ''}${e.detail ? `: ${e.detail}` : ''}`,
  );
  return [line(w), ...(history.length ? ['', 'Found:', ...history] : ['', 'Nothing found yet.'])].join('\n');
}

export function watchListText(l: WatchList): string {
  return l.watches.length ? l.watches.map(line).join('\n') : 'No watches. Create one with watch_channel.';
}
