// The cluster's YouTube budget is shared by every account: a caller with no credits must not spend it. A batch over
// a search or channel is refused before any listing page is fetched, and free video lookups that reach YouTube are
// bounded per account (FREE_LOOKUPS_PER_10_MIN), so another account is still served.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rest } from '../support/clients.ts';
import { sharedAvailable } from '../support/fixture-files.ts';
import { browseAvailable } from '../support/youtube-browse-replay.ts';
import { ID } from '../transcripts/recorded-youtube.ts';
import { startBatchHarness, type BatchHarness } from './batch-harness.ts';

let h: BatchHarness;
beforeAll(async () => {
  if (sharedAvailable && browseAvailable) h = await startBatchHarness({ FREE_LOOKUPS_PER_10_MIN: '3' });
});
afterAll(() => h?.close());

describe.skipIf(!sharedAvailable || !browseAvailable)('the shared YouTube budget', { timeout: 60_000 }, () => {
  it('a batch over a search or channel at balance 0 is refused with 402 before YouTube is asked', async () => {
    const { key } = await h.s.newKey();
    const before = h.yt.requests.length;
    for (const body of [{ search: 'lofi hip hop' }, { channel: '@LinusTechTips' }]) {
      const r = await rest(h.s.url, 'POST', '/batches', { key, body });
      expect(r.status).toBe(402);
      expect(r.json.error.code).toBe('INSUFFICIENT_CREDITS');
    }
    expect(h.yt.requests.length).toBe(before);
  });

  it('free lookups of videos not stored are bounded per account; stored ones and other accounts are still served', async () => {
    const poor = await h.s.newKey({ rateLimit: 1000 });
    const ids = [ID.captions9, ID.manualAndAsr, ID.tracks19, ID.tracks36, ID.web15];
    for (const id of ids.slice(0, 3))
      expect((await rest(h.s.url, 'GET', `/videos/${id}`, { key: poor.key })).status).toBe(200);
    const seen = h.yt.requests.length;
    const refused = await rest(h.s.url, 'GET', `/videos/${ids[3]}/tracks`, { key: poor.key });
    expect(refused.status).toBe(429);
    expect(refused.json.error.code).toBe('RATE_LIMITED');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(h.yt.requests.length).toBe(seen);
    // A stored video costs YouTube nothing and still answers.
    expect((await rest(h.s.url, 'GET', `/videos/${ids[0]}`, { key: poor.key })).status).toBe(200);
    // Another account has its own allowance.
    const other = await h.s.newKey();
    expect((await rest(h.s.url, 'GET', `/videos/${ids[4]}`, { key: other.key })).status).toBe(200);
  });
});
