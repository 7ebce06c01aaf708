// The loopback YouTube of the watch tests. Browse answers are the recorded ones (test/support/youtube-browse-replay.ts);
// to make a channel gain a video between two checks, the first page of the recorded Creative Commons channel is
// served with some of its videos taken out (a response derived from the recorded one, nothing else changed), and
// then as recorded: the videos taken out are the new uploads. Their players are our own fixture
// (test/fixtures/youtube-own) under their ids, so their transcripts can be fetched.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { json, type FakeRoutes } from '../support/fake-youtube.ts';
import { readOwn, REPO_ROOT } from '../support/fixture-files.ts';
import { replayBrowse } from '../support/youtube-browse-replay.ts';

const DIR = resolve(REPO_ROOT, process.env.YOUTUBE_BROWSE_FIXTURES_DIR ?? '../shared/fixtures/youtube-browse');
const FIRST_PAGE = 'browse.channel.videos.first-page.UCTwECeGqMZee77BjdoYtI2Q.newpipe-mock.json';
const recordedFirstPage = () =>
  JSON.parse(readFileSync(resolve(DIR, FIRST_PAGE), 'utf8')).response.responseBody as string;

/** The channel's newest videos as recorded, first two. */
export const NEWEST = ['BD-LB23rRBE', 'ea1MAxH0KJc'] as const;

/** The recorded page without the grid items of `hidden` videos. */
function withoutVideos(body: string, hidden: string[]): string {
  const page = JSON.parse(body);
  const strip = (o: unknown): void => {
    if (Array.isArray(o)) {
      for (let i = o.length - 1; i >= 0; i--) {
        const id = (o[i] as { richItemRenderer?: unknown })?.richItemRenderer ? JSON.stringify(o[i]) : '';
        if (hidden.some((v) => id.includes(`"videoId":"${v}"`))) o.splice(i, 1);
        else strip(o[i]);
      }
    } else if (o && typeof o === 'object') for (const v of Object.values(o)) strip(v);
  };
  strip(page);
  return JSON.stringify(page);
}

export interface ChannelState {
  /** Videos not yet "uploaded": left out of the channel's first page. */
  hidden: string[];
}

export function watchRoutes(state: ChannelState): FakeRoutes {
  const first = recordedFirstPage();
  return {
    other(url, body) {
      const answer = replayBrowse(url, body);
      if (answer && 'body' in answer && answer.body === first && state.hidden.length)
        return { status: 200, body: withoutVideos(first, state.hidden) };
      return answer ?? { status: 404, body: 'no route' };
    },
    player: (_client, id) =>
      NEWEST.includes(id as (typeof NEWEST)[number])
        ? json(readOwn('player.own.captions.json').replaceAll('OwnVideo001', id))
        : { status: 404, body: 'no route' },
    timedtext: (url) =>
      NEWEST.includes(url.searchParams.get('v') as (typeof NEWEST)[number])
        ? { body: readOwn('timedtext.own.srv3.xml'), contentType: 'text/xml' }
        : { status: 404, body: '' },
  };
}
