// Credits and capacity for subtitles, end to end: the first extraction costs 2, stored answers are free and never
// reach YouTube, no credits means no extraction, concurrent identical requests make one download and one charge,
// and a saturated queue answers 503 while the work it holds still completes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedAvailable } from '../support/fixture-files.ts';
import { mcpClient, mcpError, rest, trpcClient } from '../support/clients.ts';
import { isCaptions, isPlayer } from '../support/loopback-youtube.ts';
import { balanceOf, ID, pollUntil, startRecordedHarness, type Harness } from './recorded-youtube.ts';

let h: Harness;
beforeAll(async () => {
  if (sharedAvailable) h = await startRecordedHarness();
});
afterAll(() => h?.close());

const subtitles = (key: string, body: object) => rest(h.s.url, 'POST', '/subtitles', { key, body });
const charges = (videoId: string) =>
  h.s.deps.sql<{ account_id: string; delta: number; operation: string }[]>`
    select account_id, delta, operation from credit_ledger where video_id = ${videoId} and kind = 'charge'`;

describe.skipIf(!sharedAvailable)('charging', () => {
  it('the first fetch costs 2; repeats on every surface and for other accounts are free and ask YouTube nothing', async () => {
    const { key, accountId } = await h.s.newKey({ credits: 10 });
    const first = await subtitles(key, { videoId: ID.manualAndAsrVisionos });
    expect(first.json).toMatchObject({ cached: false, creditsCharged: 2 });
    expect(await balanceOf(h.s, key)).toBe(8);
    expect(await charges(ID.manualAndAsrVisionos)).toEqual([
      { account_id: accountId, delta: -2, operation: 'subtitles' },
    ]);

    const seen = h.yt.requests.length;
    const again = await subtitles(key, { url: `https://www.youtube.com/watch?v=${ID.manualAndAsrVisionos}` });
    expect(again.json).toMatchObject({ cached: true, creditsCharged: 0 });
    expect(again.json.segments).toEqual(first.json.segments);
    const viaTrpc = await trpcClient(h.s.url, key).subtitles.get.mutate({
      videoId: ID.manualAndAsrVisionos,
      lang: 'en',
    });
    expect(viaTrpc).toMatchObject({ cached: true, creditsCharged: 0, matchedBy: 'exact' });
    const other = await h.s.newKey({ credits: 10 });
    const client = await mcpClient(h.s.url, other.key);
    const viaMcp: any = await client.callTool({
      name: 'get_video_subtitles',
      arguments: { videoId: ID.manualAndAsrVisionos },
    });
    await client.close();
    expect(viaMcp.structuredContent).toMatchObject({ cached: true, creditsCharged: 0 });

    expect(h.yt.requests.length).toBe(seen);
    expect(await balanceOf(h.s, key)).toBe(8);
    expect(await balanceOf(h.s, other.key)).toBe(10);
    expect(await charges(ID.manualAndAsrVisionos)).toHaveLength(1);
  });

  it('a different track of the same video is a new extraction and costs 2 again', async () => {
    const { key } = await h.s.newKey({ credits: 10 });
    await subtitles(key, { videoId: ID.web15, lang: 'en' });
    const fr = await subtitles(key, { videoId: ID.web15, lang: 'fr' });
    expect(fr.json).toMatchObject({ lang: 'fr', cached: false, creditsCharged: 2 });
    expect(await balanceOf(h.s, key)).toBe(6);
    expect(h.yt.count(isCaptions(ID.web15))).toBe(2);
  });

  it('402 INSUFFICIENT_CREDITS with a zero balance, on REST and MCP; no captions downloaded, nothing stored', async () => {
    const { key } = await h.s.newKey(); // DAILY_FREE_CREDITS is 0 on the test server
    const r = await subtitles(key, { videoId: ID.manualOnlyDe });
    expect(r.status).toBe(402);
    expect(r.json).toEqual({
      error: {
        code: 'INSUFFICIENT_CREDITS',
        message: expect.stringMatching(/^This operation costs 2 credits; the balance is 0\./),
      },
    });
    const client = await mcpClient(h.s.url, key);
    const tool = await client.callTool({ name: 'get_video_subtitles', arguments: { videoId: ID.manualOnlyDe } });
    await client.close();
    expect(mcpError(tool)?.code).toBe('INSUFFICIENT_CREDITS');

    expect(h.yt.count(isCaptions(ID.manualOnlyDe))).toBe(0);
    expect(await h.s.deps.sql`select 1 from transcripts where video_id = ${ID.manualOnlyDe}`).toHaveLength(0);
    expect(await charges(ID.manualOnlyDe)).toHaveLength(0);
    expect(await balanceOf(h.s, key)).toBe(0);
  });
});

describe.skipIf(!sharedAvailable)('concurrency', () => {
  it('20 identical requests from 3 accounts: one caption download, one charge of 2 in total', async () => {
    const keys = await Promise.all([1, 2, 3].map(() => h.s.newKey({ credits: 10 })));
    // Hold YouTube's first answer until all 20 requests are inside the service (past their rate-limit count),
    // so they really overlap instead of finding the first one's stored result.
    const held = h.yt.hold(isPlayer(ID.tracks19));
    const asks = Array.from({ length: 20 }, (_, i) =>
      subtitles(keys[i % 3]!.key, { videoId: ID.tracks19, lang: 'en' }),
    );
    await pollUntil(async () => {
      const [row] = await h.s.deps.sql<{ n: number }[]>`
        select coalesce(sum(count), 0)::int as n from rate_counters where key_id in ${h.s.deps.sql(keys.map((k) => k.keyId))}`;
      return row!.n >= 20;
    }, 'all 20 requests have been counted');
    await held.caughtAtLeast(1);
    held.release();
    const answers = await Promise.all(asks);

    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    expect(
      answers.every((a) => a.json.lang === 'en' && a.json.trackName === 'English' && a.json.segmentCount === 205),
    ).toBe(true);
    expect(answers.filter((a) => a.json.creditsCharged === 2)).toHaveLength(1);
    expect(answers.filter((a) => a.json.creditsCharged === 0 && a.json.cached === true)).toHaveLength(19);
    expect(h.yt.count(isCaptions(ID.tracks19))).toBe(1);
    expect(await charges(ID.tracks19)).toEqual([{ account_id: expect.any(String), delta: -2, operation: 'subtitles' }]);
    const balances = await Promise.all(keys.map((k) => balanceOf(h.s, k.key)));
    expect(balances.reduce((a, b) => a + b, 0)).toBe(28);
  });
});

describe.skipIf(!sharedAvailable)('capacity', () => {
  let busy: Harness;
  beforeAll(async () => {
    // One extraction at a time, and one job allowed to wait behind it.
    if (sharedAvailable) busy = await startRecordedHarness({ EXTRACTION_CONCURRENCY: '1', QUEUE_MAX_WAITING: '1' });
  });
  afterAll(() => busy?.close());

  it('503 SERVICE_BUSY when saturated; what was accepted completes once YouTube answers', async () => {
    const { s, yt } = busy;
    const { key } = await s.newKey({ credits: 20 });
    const [a, b, c] = [ID.captions9, ID.manualAndAsr, ID.tracks36];
    // Metadata first (free), so each subtitles request below is exactly one extraction job.
    for (const id of [a, b, c]) expect((await rest(s.url, 'GET', `/videos/${id}`, { key })).status).toBe(200);
    const queued = async () => {
      const [row] = await s.deps.sql<
        { n: number }[]
      >`select count(*)::int as n from pgboss.job where name = 'extract' and state in ('created', 'retry')`;
      return row!.n;
    };

    const held = yt.hold(isCaptions());
    const ask = (videoId: string) => rest(s.url, 'POST', '/subtitles', { key, body: { videoId } });
    const first = ask(a);
    await held.caughtAtLeast(1); // a's job is running, its download held open
    const second = ask(b);
    await pollUntil(async () => (await queued()) === 1, "b's job is waiting");
    const sameAsFirst = ask(a); // joins a's job: adds no work, so it is not refused

    const refused = await ask(c);
    expect(refused.status).toBe(503);
    expect(refused.json).toEqual({ error: { code: 'SERVICE_BUSY', message: expect.stringContaining('saturated') } });
    expect(refused.headers.get('retry-after')).toBe('5');
    const client = await mcpClient(s.url, key);
    expect(mcpError(await client.callTool({ name: 'get_video_subtitles', arguments: { videoId: c } }))?.code).toBe(
      'SERVICE_BUSY',
    );
    await client.close();
    expect(yt.count(isCaptions(c))).toBe(0);

    held.release();
    const [ra, rb, rSame] = await Promise.all([first, second, sameAsFirst]);
    expect([ra.status, rb.status, rSame.status]).toEqual([200, 200, 200]);
    expect([ra.json.creditsCharged, rb.json.creditsCharged, rSame.json.creditsCharged]).toEqual([2, 2, 0]);
    expect(await balanceOf(s, key)).toBe(16);
    expect([yt.count(isCaptions(a)), yt.count(isCaptions(b))]).toEqual([1, 1]);

    // With the queue drained, the refused video is accepted.
    expect((await ask(c)).json).toMatchObject({ videoId: c, creditsCharged: 2 });
  });
});
