// Attacks on the lookup admission (src/domain/admission/) through the running service. A caller whose balance
// covers a listing page takes no free lookup for the handle it names; but a handle that does not resolve is never
// charged, so an account holding 1 credit could make YouTube resolve any number of handles for nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rest } from '../support/clients.ts';
import { browseAvailable } from '../support/youtube-browse-replay.ts';
import { isInnertube, startBrowseHarness, type BrowseHarness } from '../listing/browse-harness.ts';

const FREE = 5;
const resolves = (h: BrowseHarness) => h.yt.requests.filter(isInnertube('navigation/resolve_url')).length;

describe.skipIf(!browseAvailable)('lookups a paying caller is never charged for', { timeout: 60_000 }, () => {
  let h: BrowseHarness;
  beforeAll(async () => {
    h = await startBrowseHarness({ FREE_LOOKUPS_PER_10_MIN: String(FREE) });
  });
  afterAll(() => h?.close());

  it('12 unknown @handles by an account with 1 credit: at most 5 reach YouTube, the rest are 429, nothing charged', async () => {
    const { key } = await h.s.newKey({ credits: 1, rateLimit: 100_000 });
    const before = resolves(h);
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      const r = await rest(h.s.url, 'GET', `/channels/videos?channelId=${encodeURIComponent(`@paid-nobody${i}`)}`, {
        key,
      });
      statuses.push(r.status);
      if (r.status === 429) expect(r.json.error.code).toBe('RATE_LIMITED');
    }
    expect(resolves(h) - before).toBeLessThanOrEqual(FREE);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(12 - FREE - 1);
    const credits = (await rest(h.s.url, 'GET', '/credits', { key })).json;
    expect(credits).toMatchObject({ balance: 1, held: 0 });
  });
});
