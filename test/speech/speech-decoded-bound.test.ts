// Speech-to-text is priced and bounded by the audio actually decoded, not by what the media claims. A loopback
// server serves real media that lies about its length: an HLS playlist whose #EXTINF say 0.3 s per segment (each
// real segment is 30 s) and a WebM whose Duration header says 0.3 s; both hold about 175 s of speech. A caller
// whose balance covers one minute is refused with 402 before any audio reaches the engine, and nothing is charged;
// a caller who can pay is charged for the minutes decoded.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { speechPrice } from '../../src/domain/pricing/prices.ts';
import { createMediaGateway } from '../../src/infra/net/media-gateway.ts';
import { mcpClient, rest, trpcClient } from '../support/clients.ts';
import { startFakeWhisper, type FakeWhisper } from '../support/fake-whisper.ts';
import { audioAvailable, speechProgramme } from '../support/speech-audio.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';
import { serveFile, startVideoServer, type VideoServer } from '../support/video-server.ts';
import { needsSystemTool } from '../support/system-needs.ts';

needsSystemTool('ffmpeg');

if (process.env.CI && !audioAvailable) throw new Error('the shared audio fixtures are needed in CI');

let files: VideoServer;
let whisper: FakeWhisper;
let s: TestServer;
let lying: { hlsDir: string; webm: string; seconds: number };
/** Free lookups per account per window here (each test's account uses at most two). */
const FREE = 3;

/** The programme four times over (about 175 s), as 30 s HLS segments under a playlist claiming 0.3 s each, and as a WebM whose Duration says 0.3 s. */
function lyingMedia() {
  const programme = speechProgramme();
  const dir = join(tmpdir(), 'subtext-test-audio', 'lying-v1');
  const webm = join(dir, 'long-lying.webm');
  const hlsDir = join(dir, 'hls');
  if (!existsSync(webm) || !existsSync(join(hlsDir, 'lying.m3u8'))) {
    const tmp = `${dir}.${process.pid}.tmp`;
    rmSync(tmp, { recursive: true, force: true });
    mkdirSync(join(tmp, 'hls'), { recursive: true });
    const ff = (args: string[]) => execFileSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', ...args]);
    const long = join(tmp, 'long.webm');
    ff(['-stream_loop', '3', '-i', programme.file, '-c', 'copy', long]);
    // Matroska's Duration (id 0x4489) as an 8-byte float in timecode units (ms): 300 is 0.3 s.
    const bytes = readFileSync(long);
    const at = bytes.indexOf(Buffer.from([0x44, 0x89, 0x88]));
    if (at < 0) throw new Error('no 8-byte Duration element in the WebM');
    bytes.writeDoubleBE(300, at + 3);
    writeFileSync(join(tmp, 'long-lying.webm'), bytes);
    ff([
      '-i',
      long,
      '-c:a',
      'aac',
      '-b:a',
      '64k',
      '-f',
      'hls',
      '-hls_time',
      '30',
      '-hls_playlist_type',
      'vod',
      '-hls_segment_filename',
      join(tmp, 'hls', 'seg%03d.ts'),
      join(tmp, 'hls', 'index.m3u8'),
    ]);
    const honest = readFileSync(join(tmp, 'hls', 'index.m3u8'), 'utf8');
    writeFileSync(
      join(tmp, 'hls', 'lying.m3u8'),
      honest
        .replace(/#EXT-X-TARGETDURATION:\d+/, '#EXT-X-TARGETDURATION:1')
        .replace(/#EXTINF:[\d.]+,/g, '#EXTINF:0.3,'),
    );
    rmSync(long);
    rmSync(dir, { recursive: true, force: true });
    renameSync(tmp, dir);
  }
  return { hlsDir, webm, seconds: programme.seconds * 4 };
}

beforeAll(async () => {
  if (!audioAvailable) return;
  lying = lyingMedia();
  whisper = await startFakeWhisper();
  const again = Object.fromEntries(
    Array.from({ length: 8 }, (_, i) => [`/again/${i}.webm`, { file: lying.webm, contentType: 'video/webm' }]),
  );
  files = await startVideoServer({ '/long.webm': { file: lying.webm, contentType: 'video/webm' }, ...again }, (path) =>
    /^\/hls\/[a-z0-9]+\.(m3u8|ts)$/.test(path)
      ? {
          handle: (req, res, served) =>
            serveFile(
              req,
              res,
              served,
              join(lying.hlsDir, path.slice(5)),
              path.endsWith('.m3u8') ? 'application/vnd.apple.mpegurl' : 'video/mp2t',
            ),
        }
      : undefined,
  );
  s = await startTestServer(
    {
      STT_ENGINE: 'openai-compatible',
      STT_BASE_URL: whisper.origin,
      STT_MODEL: 'whisper-test',
      FREE_LOOKUPS_PER_10_MIN: String(FREE),
    },
    { mediaGateway: createMediaGateway({ policy: (ip) => ip === '127.0.0.1', allowHttp: true }) },
  );
}, 180_000);
afterAll(async () => {
  await s?.close();
  await files?.close();
  await whisper?.close();
});

async function finished(key: string, id: string) {
  for (const until = Date.now() + 90_000; ; await new Promise((r) => setTimeout(r, 100))) {
    const r = await rest(s.url, 'GET', `/jobs/${id}`, { key });
    if (r.json.status === 'succeeded' || r.json.status === 'failed') return r.json;
    if (Date.now() > until) throw new Error(`job ${id} still ${r.json.status}`);
  }
}

/** The balance the account holds, and what its ledger entries add up to (no daily allowance in these tests). */
async function books(accountId: string) {
  const [row] = await s.deps.sql<{ balance: number; sum: number; charged: number }[]>`
    select a.purchased_balance::int as balance,
           coalesce(sum(l.purchased_delta), 0)::int as sum,
           coalesce(-sum(l.delta) filter (where l.kind = 'charge'), 0)::int as charged
    from accounts a left join credit_ledger l on l.account_id = a.id
    where a.id = ${accountId} group by a.id`;
  return row!;
}

const sentSeconds = (from: number) => whisper.requests.slice(from).reduce((t, r) => t + (r.file?.seconds ?? 0), 0);

describe.skipIf(!audioAvailable)('speech-to-text bounded by the audio decoded', { timeout: 180_000 }, () => {
  it.each([
    ['an HLS playlist whose #EXTINF claim 0.3 s per segment', () => files.url('/hls/lying.m3u8')],
    ['a WebM whose Duration header claims 0.3 s', () => files.url('/long.webm')],
  ])('%s: one credit buys nothing from the engine; 402, nothing charged', async (_name, urlOf) => {
    const url = urlOf();
    const { key, accountId } = await s.newKey({ credits: 1 });
    const info = await rest(s.url, 'GET', `/videos/${encodeURIComponent(url)}`, { key });
    expect(info.json.duration ?? 0).toBeLessThan(5); // the lie the estimate believes
    const sent = whisper.requests.length;
    const served = files.requests.length;
    const r = await rest(s.url, 'POST', '/subtitles', { key, body: { url, mode: 'generate' } });
    expect(r.status).toBe(202);
    expect(r.json.estimatedCredits).toBe(1);
    const job = await finished(key, r.json.job.id);
    expect(job).toMatchObject({
      status: 'failed',
      creditsCharged: 0,
      error: { code: 'INSUFFICIENT_CREDITS', message: expect.stringMatching(/nothing was sent.*nothing was charged/i) },
    });
    // Refused before sending: at most the 60 s one credit covers would be allowed, and none was sent.
    expect(sentSeconds(sent)).toBe(0);
    // The decode stopped at what one credit covers: the playlist's later segments were never fetched.
    if (url.endsWith('.m3u8')) {
      const all = readFileSync(join(lying.hlsDir, 'lying.m3u8'), 'utf8').match(/\.ts$/gm)!.length;
      const fetched = new Set(
        files.requests
          .slice(served)
          .filter((q) => q.path.endsWith('.ts'))
          .map((q) => q.path),
      );
      expect(all).toBeGreaterThanOrEqual(6);
      expect(fetched.size).toBeLessThanOrEqual(4);
    }
    expect(await books(accountId)).toEqual({ balance: 1, sum: 1, charged: 0 });
    // The same verdict on tRPC and MCP (the job is one row; every surface reads it through jobs.get).
    const viaTrpc = await trpcClient(s.url, key).jobs.get.query({ id: r.json.job.id });
    expect(viaTrpc).toMatchObject({ status: 'failed', creditsCharged: 0, error: job.error });
    const client = await mcpClient(s.url, key);
    try {
      const got: any = await client.callTool({ name: 'get_job', arguments: { id: r.json.job.id } });
      expect(got.structuredContent).toMatchObject({ status: 'failed', error: { code: 'INSUFFICIENT_CREDITS' } });
    } finally {
      await client.close();
    }
  });

  it('a 1-credit account repeating it on fresh URLs gets at most FREE_LOOKUPS_PER_10_MIN probes and decodes for nothing', async () => {
    // Each attempt holds the credit while its request is open (so its probe counts as paid), then the job is refused
    // for the audio decoded and the hold released: without a bound, one credit buys any number of probes and decodes.
    const { key, accountId } = await s.newKey({ credits: 1 });
    const outcomes: string[] = [];
    const served = files.requests.length;
    for (let i = 0; i < 8; i++) {
      const url = files.url(`/again/${i}.webm`);
      const r = await rest(s.url, 'POST', '/subtitles', { key, body: { url, mode: 'generate' } });
      if (r.status !== 202) {
        outcomes.push(r.json.error.code);
        continue;
      }
      outcomes.push((await finished(key, r.json.job.id)).error?.code ?? 'done');
    }
    const reached = new Set(
      files.requests
        .slice(served)
        .map((q) => q.path)
        .filter((p) => p.startsWith('/again/')),
    );
    expect(outcomes.filter((o) => o === 'RATE_LIMITED').length, outcomes.join(',')).toBeGreaterThanOrEqual(8 - FREE);
    expect(reached.size, [...reached].join(',')).toBeLessThanOrEqual(FREE);
    expect(await books(accountId)).toEqual({ balance: 1, sum: 1, charged: 0 });
  });

  it('a caller who can pay is charged for the minutes decoded, not the 0.3 s claimed; the books balance', async () => {
    const url = files.url('/hls/lying.m3u8');
    const { key, accountId } = await s.newKey({ credits: 10 });
    const sent = whisper.requests.length;
    const r = await rest(s.url, 'POST', '/subtitles', { key, body: { url, mode: 'generate' } });
    expect(r.status).toBe(202);
    const job = await finished(key, r.json.job.id);
    const decoded = sentSeconds(sent);
    expect(decoded).toBeGreaterThan(lying.seconds - 2);
    expect(decoded).toBeLessThan(lying.seconds + 2);
    expect(job).toMatchObject({ status: 'succeeded', creditsCharged: speechPrice(decoded) });
    expect(speechPrice(decoded)).toBe(3);
    const after = await books(accountId);
    expect(after).toEqual({ balance: 10 - speechPrice(decoded), sum: 10 - speechPrice(decoded), charged: 3 });
    expect(after.balance).toBeGreaterThanOrEqual(0);
  });
});
