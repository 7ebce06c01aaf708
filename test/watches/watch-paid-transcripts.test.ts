// A watch's transcript step is a paid request like a procedure call: its video lookup is settled with it, so a
// funded account's charged transcripts never count against its unpaid lookups (FREE_LOOKUPS_PER_10_MIN is 1 here:
// one counted would refuse the next transcript and the account's own paid calls).
import { describe, expect, it } from 'vitest';
import { TRANSCRIPT_PRICE } from '../../src/domain/pricing/prices.ts';
import { checkDueWatches } from '../../src/domain/watches/check-watch.ts';
import { watchCheckPorts } from '../../src/jobs/watch-worker.ts';
import { rest } from '../support/clients.ts';
import { browseAvailable, BROWSE } from '../support/youtube-browse-replay.ts';
import { balanceOf } from '../transcripts/recorded-youtube.ts';
import { NEWEST } from './channel-page.ts';
import { useWatchHarness } from './watch-harness.ts';

const channel = { channelId: BROWSE.channelVideos.id };
const h = useWatchHarness({ FREE_LOOKUPS_PER_10_MIN: '1' });

const checkOnBoth = async () =>
  (
    await Promise.all([checkDueWatches(watchCheckPorts(h.s1.deps)), checkDueWatches(watchCheckPorts(h.s2.deps))])
  ).reduce((a, b) => a + b);

/** A watch on the channel whose first check has noted it with `hidden` left out. */
async function noted(key: string, hidden: string[], body: Record<string, unknown> = {}): Promise<string> {
  h.state.hidden = hidden;
  const w = await rest(h.s1.url, 'POST', '/watches', { key, body: { channel, ...body } });
  expect(w.status, JSON.stringify(w.json)).toBe(200);
  expect(await checkOnBoth()).toBe(1);
  h.state.hidden = [];
  await h.s1.deps.sql`update watches set next_check_at = now() where id = ${w.json.id}`;
  return w.json.id as string;
}

describe.skipIf(!browseAvailable)('a watch’s paid transcripts', { timeout: 120_000 }, () => {
  it('a funded account’s transcripts are paid requests: each charged, none counted as an unpaid lookup', async () => {
    // FREE_LOOKUPS_PER_10_MIN is 1 here: a paid transcript step counted as an unpaid lookup would refuse the next one.
    const rich = await h.s1.newKey({ credits: 5 });
    const id = await noted(rich.key, [...NEWEST], { transcripts: true });
    expect(await checkOnBoth()).toBe(1);
    const got = (await rest(h.s1.url, 'GET', `/watches/${id}`, { key: rich.key })).json;
    const steps = got.history.filter((e: { kind: string }) => e.kind !== 'video_published');
    expect(steps.map((e: { kind: string; detail: string | null }) => [e.kind, e.detail])).toEqual([
      ['transcript_ready', null],
      ['transcript_ready', null],
    ]);
    expect(await balanceOf(h.s1, rich.key)).toBe(5 - 2 * TRANSCRIPT_PRICE);
    const unpaid = await h.s1.deps.sql<{ n: number }[]>`
      select coalesce(sum(count), 0)::int as n from rate_counters where key_id = ${`lookup-unpaid:${rich.accountId}`}`;
    expect(unpaid[0]!.n).toBe(0);
  });
});
