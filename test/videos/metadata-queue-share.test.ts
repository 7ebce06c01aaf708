// Metadata lookups (GET /videos/{id}, and a paid operation's first look at a video not stored yet) run as extract
// jobs like transcripts, so they count against QUEUE_MAX_WAITING_PER_ACCOUNT too: one account's held lookups cannot
// fill the extract queue every other account shares. Before, an info job carried no account and was never counted.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rest } from '../support/clients.ts';
import { sharedAvailable } from '../support/fixture-files.ts';
import { isPlayer } from '../support/loopback-youtube.ts';
import { type Harness, ID, startRecordedHarness } from '../transcripts/recorded-youtube.ts';

describe.skipIf(!sharedAvailable)('metadata lookups and the per-account queue share', { timeout: 60_000 }, () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startRecordedHarness({ QUEUE_MAX_WAITING_PER_ACCOUNT: '1', QUEUE_MAX_WAITING: '10' });
  });
  afterAll(() => h?.close());

  it('a second lookup of one account while its first is running is 429; another account is served', async () => {
    const a = await h.s.newKey({ credits: 5 });
    const b = await h.s.newKey({ credits: 5 });
    const held = h.yt.hold(isPlayer(ID.captions9));
    const first = rest(h.s.url, 'GET', `/videos/${ID.captions9}`, { key: a.key });
    await held.caughtAtLeast(1);
    const [job] = await h.s.deps.sql<{ group_id: string | null }[]>`
      select group_id from pgboss.job where name = 'extract' and singleton_key = ${`info:${ID.captions9}`}`;
    expect(job?.group_id).toBe(a.accountId);

    // A's next lookup (another video, so not a join) is over its share; a paid operation's lookup too.
    const second = await rest(h.s.url, 'GET', `/videos/${ID.manualAndAsr}`, { key: a.key });
    expect(second.status).toBe(429);
    expect(second.json.error.code).toBe('RATE_LIMITED');
    const paid = await rest(h.s.url, 'POST', '/subtitles', { key: a.key, body: { videoId: ID.asrOnlyFr } });
    expect(paid.status).toBe(429);

    // B is not held back by A's share.
    expect((await rest(h.s.url, 'GET', `/videos/${ID.manualAndAsr}`, { key: b.key })).status).toBe(200);
    held.release();
    expect((await first).status).toBe(200);
    // Its share is free again once the lookup ended.
    expect((await rest(h.s.url, 'GET', `/videos/${ID.manualAndAsr}`, { key: a.key })).status).toBe(200);
  });
});
