// MCP text for listings: one short line per video, then how to get the next page. The cursor is long (YouTube's
// token), so it is printed once, at the end.
import type { ChannelPage, ListedVideo, PlaylistPage, SearchPage } from '../../domain/listing/schemas.ts';
import { clock } from '../../domain/transcripts/formats.ts';
import { chargedText } from './shared.ts';

const line = (v: ListedVideo, i: number) =>
  `${i + 1}. ${v.videoId} · ${v.title}${v.duration !== null ? ` · ${clock(v.duration)}` : ''}${v.published ? ` · ${v.published}` : ''}`;

function pageText(
  header: string[],
  o: { items: ListedVideo[]; nextCursor: string | null; creditsCharged: number; cached: boolean },
  tool: string,
  same: string,
): string {
  const lines = [
    ...header,
    `${o.items.length} videos on this page; ${chargedText(o.creditsCharged, o.cached && 'cached')}.`,
    '',
  ];
  lines.push(...o.items.map(line));
  lines.push('');
  lines.push(
    o.nextCursor
      ? `More videos: call ${tool} again with ${same} and cursor="${o.nextCursor}"`
      : 'This is the last page.',
  );
  return lines.join('\n');
}

export function playlistText(o: PlaylistPage): string {
  const p = o.playlist;
  const header = p
    ? [
        `Playlist ${p.playlistId}: "${p.title}"${p.author ? ` by ${p.author}` : ''}${p.videoCountText ? ` (${p.videoCountText})` : ''}`,
      ]
    : [];
  return pageText(header, o, 'list_playlist_videos', 'the same playlist');
}

export function channelText(o: ChannelPage): string {
  const c = o.channel;
  const header = c
    ? [
        `Channel ${c.name}${c.handle ? ` (${c.handle})` : ''}, ${c.channelId}${c.subscriberCountText ? `, ${c.subscriberCountText}` : ''}; ${o.tab} tab.`,
        ...(c.description ? [`About: ${c.description.replace(/\s+/g, ' ').slice(0, 300)}`] : []),
      ]
    : [`${o.tab} tab, next page.`];
  return pageText(header, o, 'list_channel_videos', `the same channel and tab "${o.tab}"`);
}

export function videoSearchText(o: SearchPage): string {
  return pageText([`YouTube search results for "${o.query}".`], o, 'search_youtube_videos', 'the same query');
}
