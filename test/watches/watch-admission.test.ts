// A watch's check fetches listing pages on the account's behalf, so it passes the same lookup admission as every
// other fetch: the cluster's shared egress budget (LOOKUP_EGRESS_PER_MINUTE) bounds it too. It takes none of the
// account's free lookups (its own bounds are watches per account, pages per check and the shortest interval), and a
// spent budget is the service's refusal, not the watch's failure: the watch stays active, its failures at 0.
import { describe, expect, it } from 'vitest';
import { checkDueWatches } from '../../src/domain/watches/check-watch.ts';
import { watchCheckPorts } from '../../src/jobs/watch-worker.ts';
import { rest } from '../support/clients.ts';
import { browseAvailable, BROWSE } from '../support/youtube-browse-replay.ts';
import { useWatchHarness } from './watch-harness.ts';

const h = useWatchHarness({ LOOKUP_EGRESS_PER_MINUTE: '50', FREE_LOOKUPS_PER_10_MIN: '1' });
const browsed = () => h.yt.requests.filter((r) => r.kind === 'other').length;
const makeDue = (id: string) => h.s1.deps.sql`update watches set next_check_at = now() where id = ${id}`;

describe.skipIf(!browseAvailable)('watch checks and the lookup admission', { timeout: 90_000 }, () => {
  it('take no free lookup, and a spent egress budget stops the check without counting against the watch', async () => {
    const pinned = Math.floor(Date.now() / 600_000) * 600_000 + 1_000;
    h.s1.deps.clock.now = () => pinned;
    const { key } = await h.s1.newKey({ credits: 10 });
    const ids: string[] = [];
    // Two watches' first checks: more pages than the account's one free lookup, all admitted.
    for (const target of [
      { channel: { channelId: BROWSE.channelVideos.id } },
      { playlist: { playlistId: BROWSE.playlist.id } },
    ]) {
      const r = await rest(h.s1.url, 'POST', '/watches', { key, body: { ...target, intervalSeconds: 60 } });
      expect(r.status, JSON.stringify(r.json)).toBe(200);
      ids.push(r.json.id);
    }
    const before = browsed();
    expect(await checkDueWatches(watchCheckPorts(h.s1.deps))).toBe(2);
    expect(browsed() - before).toBeGreaterThanOrEqual(2);
    for (const id of ids) {
      const w = await rest(h.s1.url, 'GET', `/watches/${id}`, { key });
      expect(w.json, JSON.stringify(w.json)).toMatchObject({ status: 'active', failures: 0, lastError: null });
    }

    // The shared budget is spent (by other accounts, say): the next check asks YouTube nothing.
    const minute = new Date(pinned - (pinned % 60_000)).toISOString();
    await h.s1.deps.sql`
      insert into rate_counters (key_id, window_start, count) values ('lookup-egress', ${minute}::timestamptz, 1000)
      on conflict (key_id, window_start) do update set count = 1000`;
    await makeDue(ids[0]!);
    const spent = browsed();
    expect(await checkDueWatches(watchCheckPorts(h.s1.deps))).toBe(1);
    expect(browsed()).toBe(spent);
    const w = await rest(h.s1.url, 'GET', `/watches/${ids[0]}`, { key });
    expect(w.json).toMatchObject({ status: 'active', failures: 0 });
    expect(w.json.lastError).toMatch(/^RATE_LIMITED/);
  });
});
