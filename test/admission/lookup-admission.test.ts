// Every fetch the service makes for a caller before a charge is known passes one admission step: the account's free
// allowance (FREE_LOOKUPS_PER_10_MIN), the account's lookups in flight (LOOKUPS_IN_FLIGHT_PER_ACCOUNT), then the
// cluster's egress budget (LOOKUP_EGRESS_PER_MINUTE), each refusal a 429 RATE_LIMITED with Retry-After. Counted
// at the loopback YouTube and media servers, through the real service (issue 32, item 2).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rest } from '../support/clients.ts';
import { cachedTestVideo } from '../support/make-video.ts';
import { serveFile, startVideoServer, type ServedRequest, type VideoServer } from '../support/video-server.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';
import { browseAvailable } from '../support/youtube-browse-replay.ts';
import { isInnertube, startBrowseHarness, type BrowseHarness } from '../listing/browse-harness.ts';
import { startBatchHarness, type BatchHarness } from '../batches/batch-harness.ts';
import { sharedAvailable } from '../support/fixture-files.ts';
import { ID, pollUntil } from '../transcripts/recorded-youtube.ts';

const FREE = 5;
const resolves = (h: BrowseHarness) => h.yt.requests.filter(isInnertube('navigation/resolve_url')).length;

describe.skipIf(!browseAvailable)('handles at balance 0', { timeout: 60_000 }, () => {
  let h: BrowseHarness;
  beforeAll(async () => {
    h = await startBrowseHarness({ FREE_LOOKUPS_PER_10_MIN: String(FREE) });
  });
  afterAll(() => h?.close());

  it('12 channel listings by @handle resolve at most 5 handles at YouTube; the rest are 429 with Retry-After', async () => {
    const { key } = await h.s.newKey({ rateLimit: 100_000 });
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      const r = await rest(h.s.url, 'GET', `/channels/videos?channelId=${encodeURIComponent(`@nobody${i}`)}`, { key });
      statuses.push(r.status);
      if (r.status === 429) {
        expect(r.json.error.code).toBe('RATE_LIMITED');
        expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
      }
    }
    expect(resolves(h)).toBeLessThanOrEqual(FREE);
    expect(statuses.filter((s) => s === 429)).toHaveLength(12 - FREE);
  });
});

describe.skipIf(!browseAvailable)('the shared egress budget', { timeout: 60_000 }, () => {
  const BUDGET = 3;
  let h: BrowseHarness;
  beforeAll(async () => {
    h = await startBrowseHarness({ FREE_LOOKUPS_PER_10_MIN: '100', LOOKUP_EGRESS_PER_MINUTE: String(BUDGET) });
    // One minute window for the whole test, whatever the wall clock does meanwhile.
    const pinned = Math.floor(Date.now() / 60_000) * 60_000 + 1_000;
    h.s.deps.clock.now = () => pinned;
  });
  afterAll(() => h?.close());

  it('two accounts share it: once one has spent it, the other is refused before YouTube is asked', async () => {
    const a = await h.s.newKey({ rateLimit: 100_000 });
    const b = await h.s.newKey({ rateLimit: 100_000 });
    for (let i = 0; i < BUDGET; i++) {
      const r = await rest(h.s.url, 'GET', `/channels/videos?channelId=${encodeURIComponent(`@first${i}`)}`, {
        key: a.key,
      });
      expect(r.status).not.toBe(429);
    }
    const before = resolves(h);
    const r = await rest(h.s.url, 'GET', `/channels/videos?channelId=${encodeURIComponent('@second')}`, {
      key: b.key,
    });
    expect(r.status).toBe(429);
    expect(r.json.error.code).toBe('RATE_LIMITED');
    expect(r.json.error.message).toMatch(/every account/);
    expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(resolves(h)).toBe(before);
  });
});

describe('direct-media probes at balance 0', { timeout: 90_000 }, () => {
  let files: VideoServer;
  let s: TestServer;
  const open = new Map<string, number>();
  let most = 0;
  const probed = new Set<string>();

  beforeAll(async () => {
    const video = await cachedTestVideo({ seconds: 2 });
    const track = (req: IncomingMessage, res: ServerResponse, served: ServedRequest) => {
      probed.add(served.path);
      // Probes at once: media URLs with a request open (one probe may read in several requests).
      open.set(served.path, (open.get(served.path) ?? 0) + 1);
      most = Math.max(most, [...open.values()].filter((n) => n > 0).length);
      res.on('close', () => open.set(served.path, open.get(served.path)! - 1));
      serveFile(req, res, served, video, 'video/mp4');
    };
    files = await startVideoServer({}, (path) => (path.startsWith('/m/') ? { handle: track } : undefined));
    s = await startTestServer({
      MEDIA_ALLOWED_NETWORKS: '127.0.0.1',
      FREE_LOOKUPS_PER_10_MIN: String(FREE),
      LOOKUPS_IN_FLIGHT_PER_ACCOUNT: '3',
    });
  }, 60_000);
  afterAll(async () => {
    await s?.close();
    await files?.close();
  });

  it('12 at once reach the media host at most 3 at a time and at most 5 in all', async () => {
    const { key } = await s.newKey({ rateLimit: 100_000 });
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        rest(s.url, 'GET', `/videos/${encodeURIComponent(files.url(`/m/${i}.mp4`))}`, { key }),
      ),
    );
    const refused = answers.filter((r) => r.status === 429);
    for (const r of refused) {
      expect(r.json.error.code).toBe('RATE_LIMITED');
      expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    expect(answers.every((r) => r.status === 200 || r.status === 429)).toBe(true);
    expect(probed.size).toBeLessThanOrEqual(FREE);
    expect(most).toBeLessThanOrEqual(3);
    expect(refused.length).toBeGreaterThanOrEqual(12 - FREE);
  });
});

describe.skipIf(!sharedAvailable || !browseAvailable)('a batch item refused for now', { timeout: 120_000 }, () => {
  let h: BatchHarness;
  let pinned = 0;
  beforeAll(async () => {
    h = await startBatchHarness({ LOOKUP_EGRESS_PER_MINUTE: '1' });
    pinned = Math.floor(Date.now() / 60_000) * 60_000 + 1_000;
    h.s.deps.clock.now = () => pinned;
  });
  afterAll(() => h?.close());

  const queuedRetries = (batchId: string) =>
    h.s.deps.sql<{ wait: number }[]>`
      select extract(epoch from start_after - now())::float8 as wait from pgboss.job
      where name = 'batch-item' and state = 'created' and data->>'batchId' = ${batchId} and (data->>'attempt')::int = 2`;

  it('RATE_LIMITED (the egress budget spent) puts the video back in the queue; it succeeds once the budget allows', async () => {
    const other = await h.s.newKey({ rateLimit: 100_000 });
    expect((await rest(h.s.url, 'GET', `/videos/${ID.captions9}`, { key: other.key })).status).toBe(200);
    const { key } = await h.s.newKey({ credits: 20, rateLimit: 100_000 });
    const created = await rest(h.s.url, 'POST', '/batches', { key, body: { videos: [ID.manualAndAsr] } });
    expect(created.status).toBe(202);
    const id = created.json.id;
    await pollUntil(async () => (await queuedRetries(id)).length > 0, 'the item is queued again', 60_000);
    const mid = (await rest(h.s.url, 'GET', `/batches/${id}`, { key })).json;
    expect(mid).toMatchObject({ status: 'running', items: [{ status: 'queued', error: null }] });

    // The next minute: a fresh budget; the retry starts now instead of after its wait.
    pinned += 60_000;
    await h.s.deps
      .sql`update pgboss.job set start_after = now() where name = 'batch-item' and state = 'created' and data->>'batchId' = ${id}`;
    let batch: any;
    await pollUntil(
      async () => (batch = (await rest(h.s.url, 'GET', `/batches/${id}`, { key })).json).status !== 'running',
      'the batch ends',
      60_000,
    );
    expect(batch).toMatchObject({ status: 'succeeded', counts: { succeeded: 1 } });
  });
});
