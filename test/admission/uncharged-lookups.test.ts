// A paying caller's lookup takes no free lookup: its request is expected to pay. One that succeeds and whose request
// then charges nothing (frames past the end of a video the service had to ask YouTube about: 400 after the lookup)
// must count against the same allowance as a failed one, else an account holding 1 credit makes YouTube answer any
// number of new videos for nothing (issue 32, item 2). Counted at the loopback YouTube, through REST, tRPC and MCP.
//
// The videos are made up: every one is served the recorded player answer of GJLlxj_dtq8 (shared fixtures,
// player.captions.GJLlxj_dtq8.json, 316 s) with its id substituted, and its caption tracks the recorded json3
// download, as recorded-youtube.ts does for every recorded player.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TRPCClientError } from '@trpc/client';
import { mcpClient, mcpError, rest, trpcClient } from '../support/clients.ts';
import { json, type FakeRoutes } from '../support/fake-youtube.ts';
import { readShared, sharedAvailable } from '../support/fixture-files.ts';
import { startLoopbackYoutube, type LoopbackYoutube } from '../support/loopback-youtube.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';
import { balanceOf, ID, pollUntil, recordedRoutes } from '../transcripts/recorded-youtube.ts';

const FREE = 5;
const IN_FLIGHT = 3;
const VIDEOS = 12;
const PAST_END = 9_999;
const MADE_UP = /^Lookup[A-Z]\d{4}$/;

/** The recorded routes, plus made-up ids (`Lookup<surface><nnnn>`) answered as GJLlxj_dtq8 with the id swapped. */
function madeUpVideoRoutes(): FakeRoutes {
  const recorded = recordedRoutes();
  const player = readShared('player.captions.GJLlxj_dtq8.json');
  return {
    ...recorded,
    player(client, videoId) {
      if (videoId && MADE_UP.test(videoId)) return json(player.replaceAll(ID.captions9, videoId));
      return recorded.player!(client, videoId);
    },
    timedtext(url) {
      const v = url.searchParams.get('v') ?? '';
      if (MADE_UP.test(v)) return json(readShared('timedtext.styled-manual.json3.sc3-z_2aNX0.json'));
      return recorded.timedtext!(url);
    },
  };
}

const ids = (surface: string, n: number, from = 0) =>
  Array.from({ length: n }, (_, i) => `Lookup${surface}${String(from + i).padStart(4, '0')}`);

describe.skipIf(!sharedAvailable)('lookups whose request charges nothing', { timeout: 120_000 }, () => {
  let yt: LoopbackYoutube;
  let s: TestServer;
  /** Distinct made-up videos YouTube was asked about (one lookup may try several clients). */
  const askedAbout = (surface: string) =>
    new Set(
      yt.requests.filter((r) => r.kind === 'player' && r.videoId?.startsWith(`Lookup${surface}`)).map((r) => r.videoId),
    ).size;

  beforeAll(async () => {
    yt = await startLoopbackYoutube(madeUpVideoRoutes());
    s = await startTestServer({
      YOUTUBE_BASE_URL: yt.origin,
      FREE_LOOKUPS_PER_10_MIN: String(FREE),
      QUEUE_MAX_WAITING_PER_ACCOUNT: '0',
      LOOKUPS_IN_FLIGHT_PER_ACCOUNT: String(IN_FLIGHT),
    });
    // One allowance window for the whole file, whatever the wall clock does meanwhile.
    const pinned = Math.floor(Date.now() / 600_000) * 600_000 + 1_000;
    s.deps.clock.now = () => pinned;
  });
  afterAll(async () => {
    await s?.close();
    await yt?.close();
  });

  it('REST: frames past the end of 12 new videos by a 1-credit account reach YouTube at most 5 times', async () => {
    const { key } = await s.newKey({ credits: 1, rateLimit: 100_000 });
    const statuses: number[] = [];
    for (const videoId of ids('R', VIDEOS)) {
      const r = await rest(s.url, 'POST', '/frames', { key, body: { videoId, timestamps: [PAST_END] } });
      statuses.push(r.status);
      if (r.status === 400) expect(r.json.error.code).toBe('INVALID_REQUEST');
      else {
        expect(r.status).toBe(429);
        expect(r.json.error.code).toBe('RATE_LIMITED');
        expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
      }
    }
    expect(askedAbout('R')).toBeLessThanOrEqual(FREE);
    expect(statuses.filter((st) => st === 429)).toHaveLength(VIDEOS - FREE);
    expect(await balanceOf(s, key)).toBe(1);
  });

  it('tRPC: the same 12 requests, the same bound', async () => {
    const { key } = await s.newKey({ credits: 1, rateLimit: 100_000 });
    const client = trpcClient(s.url, key);
    const codes: string[] = [];
    for (const videoId of ids('T', VIDEOS)) {
      const err = await client.frames.capture.mutate({ videoId, timestamps: [PAST_END] }).then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(TRPCClientError);
      codes.push((err as TRPCClientError<any>).data?.code);
    }
    expect(askedAbout('T')).toBeLessThanOrEqual(FREE);
    expect(codes.filter((c) => c === 'RATE_LIMITED')).toHaveLength(VIDEOS - FREE);
    expect(codes.filter((c) => c !== 'RATE_LIMITED').every((c) => c === 'INVALID_REQUEST')).toBe(true);
    expect(await balanceOf(s, key)).toBe(1);
  });

  it('MCP: get_video_frame past the end of 12 new videos, the same bound', async () => {
    const { key } = await s.newKey({ credits: 1, rateLimit: 100_000 });
    const client = await mcpClient(s.url, key);
    const codes: string[] = [];
    try {
      for (const videoId of ids('M', VIDEOS)) {
        const result = await client.callTool({ name: 'get_video_frame', arguments: { videoId, t: PAST_END } });
        codes.push(mcpError(result)?.code ?? 'ok');
      }
    } finally {
      await client.close();
    }
    expect(askedAbout('M')).toBeLessThanOrEqual(FREE);
    expect(codes.filter((c) => c === 'RATE_LIMITED')).toHaveLength(VIDEOS - FREE);
    expect(codes.filter((c) => c !== 'RATE_LIMITED').every((c) => c === 'INVALID_REQUEST')).toBe(true);
    expect(await balanceOf(s, key)).toBe(1);
  });

  it('12 at once by a 1-credit account: one pays, the rest take free lookups; at most 5 reach YouTube', async () => {
    const { key } = await s.newKey({ credits: 1, rateLimit: 100_000 });
    // The lookups admitted are kept open at YouTube until every other request has been answered, so all 12 are
    // admitted while the first paying request is still open: its one credit covers it alone.
    const held = yt.hold((r) => r.kind === 'player' && !!r.videoId?.startsWith('LookupC'));
    let answered = 0;
    const pending = ids('C', VIDEOS).map((videoId) =>
      rest(s.url, 'POST', '/frames', { key, body: { videoId, timestamps: [PAST_END] } }).finally(() => answered++),
    );
    await pollUntil(() => answered + askedAbout('C') === VIDEOS, 'every request is held at YouTube or answered');
    expect(askedAbout('C')).toBe(1 + IN_FLIGHT);
    held.release();
    const answers = await Promise.all(pending);
    for (const r of answers) {
      expect([400, 429]).toContain(r.status);
      if (r.status === 429) {
        expect(r.json.error.code).toBe('RATE_LIMITED');
        expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
      }
    }
    expect(answers.filter((r) => r.status === 400)).toHaveLength(1 + IN_FLIGHT);
    expect(askedAbout('C')).toBeLessThanOrEqual(FREE);
    expect(await balanceOf(s, key)).toBe(1);
  });

  it('batches: each item is a request of its own; items that end uncharged spend the same allowance', async () => {
    const items = VIDEOS;
    const { key } = await s.newKey({ credits: items * 2, rateLimit: 100_000 });
    // Items run EXTRACTION_CONCURRENCY at once, each covered by the balance, so those started before the allowance
    // was counted spent may still look up: at most the allowance plus one round of them (before: every item).
    const width = s.deps.config.EXTRACTION_CONCURRENCY;
    // A language none of the videos has: each item looks its video up, then fails NO_SUBTITLES, charged nothing.
    const created = await rest(s.url, 'POST', '/batches', {
      key,
      body: { videos: ids('B', items), operation: { type: 'transcript', lang: 'xh' } },
    });
    expect(created.status, created.text).toBe(202);
    const id = created.json.id as string;
    const retries = () =>
      s.deps.sql<{ n: number }[]>`
        select count(*)::int as n from pgboss.job
        where name = 'batch-item' and state = 'created' and data->>'batchId' = ${id} and (data->>'attempt')::int = 2`;
    const failed = async () =>
      (await rest(s.url, 'GET', `/batches/${id}`, { key })).json.items.filter((i: any) => i.status === 'failed');
    await pollUntil(
      async () => (await failed()).length + (await retries())[0]!.n === items,
      'every item failed or was put back for later',
      60_000,
    );
    expect(askedAbout('B')).toBeLessThanOrEqual(FREE - 1 + width);
    expect(askedAbout('B')).toBeLessThan(items);
    const ended = await failed();
    expect(ended.length).toBe(askedAbout('B'));
    for (const item of ended) expect(item.error.code).toBe('NO_SUBTITLES');
    expect((await rest(s.url, 'GET', '/credits', { key })).json).toMatchObject({ balance: items * 2, held: 0 });
    await rest(s.url, 'POST', `/batches/${id}/cancel`, { key });
  });

  it('paid requests that are charged are never refused by the allowance: 12 new videos, each charged', async () => {
    const { key } = await s.newKey({ credits: 100, rateLimit: 100_000 });
    for (const videoId of ids('P', VIDEOS)) {
      const r = await rest(s.url, 'POST', '/subtitles', { key, body: { videoId } });
      expect(r.status, r.text).toBe(200);
      expect(r.json.creditsCharged).toBeGreaterThan(0);
    }
    // A burst at once after them: paced by credits and the queue, not by the allowance spent above.
    const burst = await Promise.all(
      ids('P', 6, VIDEOS).map((videoId) => rest(s.url, 'POST', '/subtitles', { key, body: { videoId } })),
    );
    for (const r of burst) expect(r.status, r.text).toBe(200);
    expect(askedAbout('P')).toBe(VIDEOS + 6);
  });
});
