// Batches end to end: REST, tRPC and MCP against the real service, YouTube replayed from recorded fixtures on a
// loopback server, webhooks received (and their signatures verified) by a receiver on 127.0.0.1.
import { createHmac } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedAvailable } from '../support/fixture-files.ts';
import { mcpClient, rest, trpcClient } from '../support/clients.ts';
import { isPlayer } from '../support/loopback-youtube.ts';
import { startWebhookReceiver, type ReceivedWebhook, type WebhookReceiver } from '../support/webhook-receiver.ts';
import { browseAvailable, BROWSE } from '../support/youtube-browse-replay.ts';
import { balanceOf, ID, pollUntil } from '../transcripts/recorded-youtube.ts';
import { startBatchHarness, type BatchHarness } from './batch-harness.ts';

let h: BatchHarness;
let receiver: WebhookReceiver;
beforeAll(async () => {
  if (!sharedAvailable || !browseAvailable) return;
  h = await startBatchHarness();
  receiver = await startWebhookReceiver();
});
afterAll(async () => {
  await h?.close();
  await receiver?.close();
});

const SUCCEED = [
  ID.captions9,
  ID.manualAndAsr,
  ID.manualAndAsrVisionos,
  ID.tracks19,
  ID.tracks36,
  ID.web15,
  ID.asrOnlyFr,
  ID.manualOnlyDe,
  ID.clientSpecific,
  ID.own,
];
const FAIL: [string, string][] = [
  [ID.noCaptions, 'NO_SUBTITLES'],
  [ID.noCaptionsLiveReplay, 'NO_SUBTITLES'],
  [ID.liveNow, 'VIDEO_LIVE'],
  [ID.upcoming, 'VIDEO_UPCOMING'],
  [ID.ageRestricted, 'VIDEO_AGE_RESTRICTED'],
  [ID.membersOnly, 'VIDEO_MEMBERS_ONLY'],
  [ID.musicPremium, 'VIDEO_PAID'],
  [ID.regionBlocked, 'VIDEO_REGION_BLOCKED'],
  [ID.private, 'VIDEO_NOT_FOUND'],
  [ID.nonexistent, 'VIDEO_NOT_FOUND'],
];

/** Verifies a delivery the way the Standard Webhooks spec describes it, by hand, and with its reference library. */
function verifySignature(secret: string, w: ReceivedWebhook) {
  const id = w.headers['webhook-id']!;
  const ts = w.headers['webhook-timestamp']!;
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = createHmac('sha256', key).update(`${id}.${ts}.${w.body}`).digest('base64');
  expect(w.headers['webhook-signature']).toBe(`v1,${expected}`);
  expect(Math.abs(Number(ts) - Date.now() / 1000)).toBeLessThan(300);
  expect(new Webhook(secret).verify(w.body, w.headers)).toEqual(JSON.parse(w.body));
}

// Each test awaits real jobs (extractions, with pg-boss retries for failing videos): generous time on a loaded machine.
describe.skipIf(!sharedAvailable || !browseAvailable)('batches', { timeout: 180_000 }, () => {
  it('REST: 20 videos, exact counts and credits (failures free), one signed webhook', async () => {
    const { key, accountId } = await h.s.newKey({ credits: 100 });
    const videos = [...SUCCEED, ...FAIL.map(([id]) => id)];
    const start = receiver.received.length;
    const created = await rest(h.s.url, 'POST', '/batches', {
      key,
      body: {
        videos: videos.map((v, i) => (i % 2 ? `https://www.youtube.com/watch?v=${v}` : v)),
        callbackUrl: receiver.url,
      },
    });
    // Asynchronous work created: 202 Accepted, with where to follow it.
    expect(created.status).toBe(202);
    expect(created.json).toMatchObject({
      kind: 'batch',
      status: 'running',
      operation: { type: 'transcript' },
      callbackUrl: receiver.url,
      counts: { total: 20 },
    });
    const id: string = created.json.id;
    expect(created.headers.get('location')).toBe(`/api/v1/batches/${id}`);
    expect(id).toMatch(/^bat_/);

    const [hook] = (await receiver.waitFor(start + 1)).slice(start);
    const batch = (await rest(h.s.url, 'GET', `/batches/${id}`, { key })).json;
    expect(batch).toMatchObject({
      status: 'succeeded',
      progress: 1,
      counts: { total: 20, queued: 0, running: 0, succeeded: 10, failed: 10, cancelled: 0 },
      creditsCharged: 20,
    });
    for (const [i, videoId] of SUCCEED.entries()) {
      expect(batch.items[i]).toMatchObject({
        position: i,
        videoId,
        status: 'succeeded',
        creditsCharged: 2,
        error: null,
        result: { type: 'transcript', cached: false },
      });
      expect(batch.items[i].result.segmentCount).toBeGreaterThan(0);
    }
    for (const [j, [videoId, code]] of FAIL.entries()) {
      expect(batch.items[10 + j]).toMatchObject({
        videoId,
        status: 'failed',
        creditsCharged: 0,
        result: null,
        error: { code },
      });
    }
    expect(await balanceOf(h.s, key)).toBe(80);

    // The event: the finished batch, signed; recorded on the batch with its attempt.
    const secret = await h.s.deps.webhooks.secretFor(accountId);
    verifySignature(secret, hook!);
    const event = JSON.parse(hook!.body);
    expect(event).toMatchObject({
      type: 'job.completed',
      data: { id, status: 'succeeded', counts: { succeeded: 10, failed: 10 }, creditsCharged: 20 },
    });
    expect(event.data.items).toHaveLength(20);
    await pollUntil(
      async () => (await rest(h.s.url, 'GET', `/batches/${id}`, { key })).json.webhooks[0]?.status === 'delivered',
      'the delivery is recorded',
    );
    const after = (await rest(h.s.url, 'GET', `/batches/${id}`, { key })).json;
    expect(after.webhooks).toHaveLength(1);
    expect(after.webhooks[0]).toMatchObject({
      id: hook!.headers['webhook-id'],
      event: 'job.completed',
      status: 'delivered',
      attempts: [{ attempt: 1, statusCode: 200, error: null }],
    });
    expect(receiver.received.length).toBe(start + 1);

    // Transcripts are stored: reading one is free.
    const t = await rest(h.s.url, 'POST', '/subtitles', { key, body: { videoId: ID.captions9 } });
    expect(t.json).toMatchObject({ cached: true, creditsCharged: 0 });
  });

  it('a receiver that fails three times gets the event on the fourth try, every attempt on the job', async () => {
    const { key, accountId } = await h.s.newKey({ credits: 10 });
    const start = receiver.received.length;
    receiver.failNext([500, 503, 500]);
    const created = await rest(h.s.url, 'POST', '/batches', {
      key,
      body: { videos: [ID.own], callbackUrl: receiver.url },
    });
    const got = (await receiver.waitFor(start + 4)).slice(start);
    const ids = new Set(got.map((w) => w.headers['webhook-id']));
    expect(ids.size).toBe(1);
    expect(new Set(got.map((w) => w.body)).size).toBe(1);
    const secret = await h.s.deps.webhooks.secretFor(accountId);
    for (const w of got) verifySignature(secret, w);
    // Exponential backoff: each wait at least the one before (base 50 ms here).
    const gaps = got.slice(1).map((w, i) => w.at - got[i]!.at);
    expect(gaps[0]).toBeGreaterThanOrEqual(45);
    expect(gaps[1]).toBeGreaterThanOrEqual(95);
    expect(gaps[2]).toBeGreaterThanOrEqual(195);

    const id = created.json.id;
    await pollUntil(
      async () => (await rest(h.s.url, 'GET', `/batches/${id}`, { key })).json.webhooks[0]?.status === 'delivered',
      'the fourth attempt is recorded',
    );
    const batch = (await rest(h.s.url, 'GET', `/batches/${id}`, { key })).json;
    expect(
      batch.webhooks[0].attempts.map((a: { attempt: number; statusCode: number }) => [a.attempt, a.statusCode]),
    ).toEqual([
      [1, 500],
      [2, 503],
      [3, 500],
      [4, 200],
    ]);
    expect(batch.webhooks[0].attempts[0].error).toBe('HTTP 500');
  });

  it('tRPC: a batch from a playlist with maxVideos takes its first videos; failures cost nothing', async () => {
    const { key } = await h.s.newKey({ credits: 10 });
    const api = trpcClient(h.s.url, key);
    const start = receiver.received.length;
    const created = await api.batches.create.mutate({
      playlist: `https://www.youtube.com/playlist?list=${BROWSE.playlist.id}`,
      maxVideos: 3,
      callbackUrl: receiver.url,
    });
    expect(created.items.map((i) => i.videoId)).toEqual(['euCqAq6BRa4', expect.any(String), expect.any(String)]);
    const [hook] = (await receiver.waitFor(start + 1)).slice(start);
    const batch = await api.batches.get.query({ id: created.id });
    // No player answer was recorded for these videos: every one fails, and nothing is charged.
    expect(batch).toMatchObject({ status: 'failed', counts: { total: 3, failed: 3 }, creditsCharged: 0 });
    expect(batch.items.every((i) => i.error && i.creditsCharged === 0)).toBe(true);
    expect(JSON.parse(hook!.body)).toMatchObject({ type: 'job.failed', data: { id: created.id, status: 'failed' } });
    expect(await balanceOf(h.s, key)).toBe(10);
  });

  it('MCP: cancelling stops the videos not started, charging nothing for them', async () => {
    // A service of its own: the videos above are stored (and so free and instant) on the shared one.
    const own = await startBatchHarness();
    const { key } = await own.s.newKey({ credits: 20 });
    const client = await mcpClient(own.s.url, key);
    const held = own.yt.hold(isPlayer());
    const videos = SUCCEED.slice(0, 8);
    const created: any = await client.callTool({ name: 'create_batch', arguments: { videos } });
    expect(created.isError).toBeFalsy();
    const id = created.structuredContent.id;
    expect(created.content[0].text).toContain(`Batch ${id}: running; 8 videos`);
    // Four run at once (EXTRACTION_CONCURRENCY): their YouTube requests are held; the other four wait.
    await held.caughtAtLeast(4);
    const cancelled: any = await client.callTool({ name: 'cancel_batch', arguments: { id } });
    expect(cancelled.structuredContent.counts).toMatchObject({ running: 4, queued: 0, cancelled: 4 });
    held.release();
    await pollUntil(
      async () =>
        ((await client.callTool({ name: 'get_batch', arguments: { id } })) as any).structuredContent.status !==
        'running',
      'the batch ends',
      30_000,
    );
    const done: any = await client.callTool({ name: 'get_batch', arguments: { id } });
    expect(done.structuredContent).toMatchObject({
      status: 'cancelled',
      counts: { succeeded: 4, cancelled: 4, failed: 0 },
      creditsCharged: 8,
    });
    expect(
      done.structuredContent.items
        .filter((i: any) => i.status === 'cancelled')
        .every((i: any) => i.creditsCharged === 0),
    ).toBe(true);
    expect(done.content[0].text).toMatch(
      /^Batch bat_\w+: cancelled; 8 videos: 4 succeeded, 0 failed, 0 running, 0 queued, 4 cancelled/,
    );
    expect(await balanceOf(own.s, key)).toBe(12);
    await client.close();
    await own.close();
  });

  it('refuses up front with 402, saying how many videos the balance covers', async () => {
    const { key } = await h.s.newKey({ credits: 5 });
    const before = h.yt.requests.length;
    const r = await rest(h.s.url, 'POST', '/batches', {
      key,
      body: { videos: [ID.captions9, ID.manualAndAsr, ID.tracks19] },
    });
    expect(r.status).toBe(402);
    expect(r.json.error).toEqual({
      code: 'INSUFFICIENT_CREDITS',
      message: expect.stringMatching(
        /^A batch of 3 videos may cost up to 6 credits .*the balance is 5, enough for 2 videos/,
      ),
    });
    expect(h.yt.requests.length).toBe(before);
    expect(await balanceOf(h.s, key)).toBe(5);
  });

  it('translations need a language model: 501 before anything runs on a server without one', async () => {
    const { key } = await h.s.newKey({ credits: 10 });
    const r = await rest(h.s.url, 'POST', '/batches', {
      key,
      body: { videos: [ID.own], operation: { type: 'translation', targetLang: 'fr' } },
    });
    expect(r.status).toBe(501);
    expect(r.json.error.code).toBe('LLM_NOT_CONFIGURED');
    expect(await balanceOf(h.s, key)).toBe(10);
  });

  it('transcripts by speech-to-text need an engine: mode generate is 501 up front on a server without one, and auto is captions only at an exact price', async () => {
    const { key } = await h.s.newKey({ credits: 10 });
    const r = await rest(h.s.url, 'POST', '/batches', {
      key,
      body: { videos: [ID.own], operation: { type: 'transcript', mode: 'generate' } },
    });
    expect(r.status).toBe(501);
    expect(r.json.error.code).toBe('STT_NOT_CONFIGURED');
    const auto = await rest(h.s.url, 'POST', '/batches', {
      key,
      body: {
        videos: [ID.own, ID.captions9, ID.manualAndAsr, ID.tracks19, ID.web15, ID.asrOnlyFr],
        operation: { type: 'transcript', mode: 'auto' },
      },
    });
    expect(auto.status).toBe(402);
    expect(auto.json.error.message).toMatch(
      /^A batch of 6 videos may cost up to 12 credits \(2 per video; stored transcripts are free\); the balance is 10, enough for 5 videos/,
    );
    expect(await balanceOf(h.s, key)).toBe(10);
  });

  it('bad batches are 400; other accounts cannot see a batch', async () => {
    const { key } = await h.s.newKey({ credits: 10 });
    for (const body of [
      {},
      { videos: [] },
      { videos: ['nope'] },
      { videos: [ID.own], search: 'x' },
      { videos: Array(101).fill(ID.own) },
      { search: 'test', maxVideos: 0 },
      { videos: [ID.own], operation: { type: 'article' } },
      { videos: [ID.own], operation: { type: 'translation', targetLang: '!!' } },
      { videos: [ID.own], operation: { type: 'frames' } },
    ]) {
      const r = await rest(h.s.url, 'POST', '/batches', { key, body });
      expect([JSON.stringify(body).slice(0, 40), r.status, r.json.error.code]).toEqual([
        JSON.stringify(body).slice(0, 40),
        400,
        'INVALID_REQUEST',
      ]);
    }
    const mine = await rest(h.s.url, 'POST', '/batches', { key, body: { videos: [ID.own] } });
    const other = await h.s.newKey();
    const r = await rest(h.s.url, 'GET', `/batches/${mine.json.id}`, { key: other.key });
    expect(r.status).toBe(404);
    expect(r.json.error.code).toBe('JOB_NOT_FOUND');
  });
});
