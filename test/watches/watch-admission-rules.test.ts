// A watch's checks under the lookup admission (src/domain/admission/), through the running service: its listing
// pages spend the cluster's shared egress budget like every other lookup (a spent budget pauses nothing), its
// transcripts' metadata lookups are a paying request's (settled when the step ends, so paid ones spend none of the
// account's allowance), a check reads at most WATCH_PAGES_PER_CHECK pages, and a watch that keeps failing is paused.
import { describe, expect, it } from 'vitest';
import { ServiceError } from '../../src/domain/errors.ts';
import { TRANSCRIPT_PRICE } from '../../src/domain/pricing/prices.ts';
import { checkDueWatches } from '../../src/domain/watches/check-watch.ts';
import { watchCheckPorts } from '../../src/jobs/watch-worker.ts';
import { rest } from '../support/clients.ts';
import { browseAvailable, BROWSE } from '../support/youtube-browse-replay.ts';
import { balanceOf } from '../transcripts/recorded-youtube.ts';
import { NEWEST } from './channel-page.ts';
import { useWatchHarness } from './watch-harness.ts';

const channel = { channelId: BROWSE.channelVideos.id };
const EGRESS = 1000;
const h = useWatchHarness({
  FREE_LOOKUPS_PER_10_MIN: '1',
  LOOKUP_EGRESS_PER_MINUTE: String(EGRESS),
  WATCH_PAGES_PER_CHECK: '2',
  WATCH_MAX_FAILURES: '3',
});

const check = () => checkDueWatches(watchCheckPorts(h.s1.deps));
const makeDue = (id: string) => h.s1.deps.sql`update watches set next_check_at = now() where id = ${id}`;
/** Only the watches of the test at hand are due. */
const quietOthers = () => h.s1.deps.sql`update watches set next_check_at = now() + interval '1 day'`;
const browses = () => h.yt.requests.filter((r) => r.path.includes('/browse')).length;
const watchOf = async (key: string, id: string) => (await rest(h.s1.url, 'GET', `/watches/${id}`, { key })).json;

/** The cluster's egress count for the current minute (the admission's window), by the service's clock. */
async function egressCount(): Promise<number> {
  const now = h.s1.deps.clock.now();
  const windowStart = new Date(now - (now % 60_000)).toISOString();
  const [row] = await h.s1.deps.sql<{ count: number }[]>`
    select count from rate_counters where key_id = 'lookup-egress' and window_start = ${windowStart}::timestamptz`;
  return row?.count ?? 0;
}

/** The shared budget spent for this minute and the next (so a minute turning mid-test changes nothing). */
async function spendEgress(): Promise<void> {
  const now = h.s1.deps.clock.now();
  for (const start of [now - (now % 60_000), now - (now % 60_000) + 60_000]) {
    await h.s1.deps.sql`
      insert into rate_counters (key_id, window_start, count)
      values ('lookup-egress', ${new Date(start).toISOString()}::timestamptz, ${EGRESS})
      on conflict (key_id, window_start) do update set count = ${EGRESS}`;
  }
}

describe.skipIf(!browseAvailable)('watches under the lookup admission', { timeout: 120_000 }, () => {
  it('a paying account’s watch fetches two new transcripts; paid lookups spend none of its allowance', async () => {
    await quietOthers();
    h.state.hidden = [...NEWEST];
    const { key, accountId } = await h.s1.newKey({ credits: 10 });
    const w = await rest(h.s1.url, 'POST', '/watches', { key, body: { channel, transcripts: true } });
    expect(await check()).toBe(1);
    h.state.hidden = [];
    await makeDue(w.json.id);
    expect(await check()).toBe(1);
    const got = await watchOf(key, w.json.id);
    const steps = got.history.filter((e: { kind: string }) => e.kind !== 'video_published');
    expect(steps.map((e: { kind: string; detail: string | null }) => [e.kind, e.detail])).toEqual([
      ['transcript_ready', null],
      ['transcript_ready', null],
    ]);
    expect(await balanceOf(h.s1, key)).toBe(10 - 2 * TRANSCRIPT_PRICE);
    const [unpaid] = await h.s1.deps.sql<{ n: number }[]>`
      select coalesce(sum(count), 0)::int as n from rate_counters where key_id = ${`lookup-unpaid:${accountId}`}`;
    expect(unpaid!.n).toBe(0);
  });

  it('a check’s listing pages count against the shared egress budget', async () => {
    await quietOthers();
    const { key } = await h.s1.newKey();
    const w = await rest(h.s1.url, 'POST', '/watches', { key, body: { channel } });
    const before = await egressCount();
    const asked = browses();
    expect(await check()).toBe(1);
    expect(browses() - asked).toBe(1);
    expect((await egressCount()) - before).toBe(1);
    expect((await watchOf(key, w.json.id)).lastError).toBeNull();
  });

  it('a spent egress budget refuses the check before YouTube is asked; the watch is not paused for it', async () => {
    await quietOthers();
    const { key } = await h.s1.newKey();
    const w = await rest(h.s1.url, 'POST', '/watches', { key, body: { channel } });
    await spendEgress();
    try {
      const asked = browses();
      for (let i = 0; i < 6; i++) {
        await makeDue(w.json.id);
        expect(await check()).toBe(1);
      }
      expect(browses()).toBe(asked);
      const got = await watchOf(key, w.json.id);
      expect(got).toMatchObject({ status: 'active', failures: 0, pausedReason: null });
      expect(got.lastError).toMatch(/^RATE_LIMITED: /);
    } finally {
      await h.s1.deps.sql`delete from rate_counters where key_id = 'lookup-egress'`;
    }
  });

  it('a check reads at most WATCH_PAGES_PER_CHECK pages when none holds a video it has seen', async () => {
    await quietOthers();
    const { key } = await h.s1.newKey();
    const w = await rest(h.s1.url, 'POST', '/watches', { key, body: { channel } });
    expect(await check()).toBe(1);
    // What it saw is gone from the listing: every listed video is new, page after page.
    await h.s1.deps.sql`update watches set seen_video_ids = '["gone0000000"]'::jsonb where id = ${w.json.id}`;
    await makeDue(w.json.id);
    const asked = browses();
    expect(await check()).toBe(1);
    expect(browses() - asked).toBe(2);
    const got = await watchOf(key, w.json.id);
    expect(got).toMatchObject({ status: 'active', failures: 0, lastError: null });
    expect(got.history.length).toBeGreaterThan(NEWEST.length);
  });

  it('while the account’s unpaid lookups are spent its watch’s check is refused before YouTube, not paused', async () => {
    await quietOthers();
    const { key, accountId } = await h.s1.newKey();
    const w = await rest(h.s1.url, 'POST', '/watches', { key, body: { channel } });
    const now = h.s1.deps.clock.now();
    const windowStart = new Date(now - (now % 600_000)).toISOString();
    await h.s1.deps.sql`
      insert into rate_counters (key_id, window_start, count)
      values (${`lookup-unpaid:${accountId}`}, ${windowStart}::timestamptz, 1)`;
    const asked = browses();
    expect(await check()).toBe(1);
    expect(browses()).toBe(asked);
    const got = await watchOf(key, w.json.id);
    expect(got).toMatchObject({ status: 'active', failures: 0 });
    expect(got.lastError).toMatch(/^RATE_LIMITED: This account has used its 1 free lookups/);
  });

  it('a watch whose checks keep failing is paused after WATCH_MAX_FAILURES, with the reason', async () => {
    await quietOthers();
    const { key } = await h.s1.newKey();
    const w = await rest(h.s1.url, 'POST', '/watches', { key, body: { channel } });
    const base = watchCheckPorts(h.s1.deps);
    const broken = {
      ...base.lister,
      channel: (): never => {
        throw new ServiceError('EXTRACTION_FAILED', 'Could not list this channel from YouTube: broken');
      },
    };
    for (let i = 0; i < 3; i++) {
      expect((await watchOf(key, w.json.id)).status).toBe('active');
      await makeDue(w.json.id);
      expect(await checkDueWatches({ ...base, lister: broken })).toBe(1);
    }
    const got = await watchOf(key, w.json.id);
    expect(got).toMatchObject({ status: 'paused', failures: 3 });
    expect(got.pausedReason).toBe(
      'paused after 3 failed check(s) in a row; last: EXTRACTION_FAILED: Could not list this channel from YouTube: broken',
    );
    await makeDue(w.json.id);
    expect(await check()).toBe(0);
  });
});
