// A hostile media server must not hold the speech queue. Two slots (STT_CONCURRENCY=2), one per account
// (STT_ACCOUNT_CONCURRENCY=1): an account whose media servers send the first 64 KB and then hold the connection gets
// one job decoding and its next one waiting, while another account's job runs in the free slot and succeeds.
import { readFileSync, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMediaGateway } from '../../src/infra/net/media-gateway.ts';
import { rest } from '../support/clients.ts';
import { startFakeWhisper, type FakeWhisper } from '../support/fake-whisper.ts';
import { audioAvailable, speechProgramme } from '../support/speech-audio.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';
import { startVideoServer, type VideoServer } from '../support/video-server.ts';

if (process.env.CI && !audioAvailable) throw new Error('the shared audio fixtures are needed in CI');

const HELD_AFTER = 64 * 1024;
let files: VideoServer;
let whisper: FakeWhisper;
let s: TestServer;

/** The file's bytes up to HELD_AFTER as asked (ranges honoured); past that, nothing, on a connection left open. */
function stalling(file: string) {
  const bytes = readFileSync(file);
  const size = statSync(file).size;
  return (req: IncomingMessage, res: ServerResponse) => {
    const range = /^bytes=(\d+)-(\d*)$/.exec(req.headers.range ?? '');
    const start = range ? Number(range[1]) : 0;
    const end = range?.[2] ? Math.min(size - 1, Number(range[2])) : size - 1;
    res.writeHead(range ? 206 : 200, {
      'content-type': 'audio/webm',
      'accept-ranges': 'bytes',
      'content-length': end - start + 1,
      ...(range ? { 'content-range': `bytes ${start}-${end}/${size}` } : {}),
    });
    if (req.method === 'HEAD') return res.end();
    if (start < HELD_AFTER) res.write(bytes.subarray(start, Math.min(end + 1, HELD_AFTER)));
    if (end < HELD_AFTER) res.end();
  };
}

beforeAll(async () => {
  if (!audioAvailable) return;
  const { file } = speechProgramme();
  whisper = await startFakeWhisper();
  files = await startVideoServer({
    '/talk.webm': { file, contentType: 'audio/webm' },
    '/held-1.webm': { handle: stalling(file) },
    '/held-2.webm': { handle: stalling(file) },
  });
  s = await startTestServer(
    {
      STT_ENGINE: 'openai-compatible',
      STT_BASE_URL: whisper.origin,
      STT_MODEL: 'whisper-test',
      STT_CONCURRENCY: '2',
      STT_ACCOUNT_CONCURRENCY: '1',
      // Longer than the test: only the per-account bound can let the other account through.
      STT_DECODE_TIMEOUT_MS: '600000',
    },
    { mediaGateway: createMediaGateway({ policy: (ip) => ip === '127.0.0.1', allowHttp: true }) },
  );
}, 120_000);
afterAll(async () => {
  // The held connections end first, so the decodes waiting on them fail and the workers stop at once.
  await files?.close();
  await s?.close();
  await whisper?.close();
});

async function until(key: string, id: string, done: (status: string) => boolean, timeoutMs = 60_000) {
  for (const end = Date.now() + timeoutMs; ; await new Promise((r) => setTimeout(r, 100))) {
    const r = await rest(s.url, 'GET', `/jobs/${id}`, { key });
    expect(r.status).toBe(200);
    if (done(r.json.status)) return r.json;
    if (Date.now() > end) throw new Error(`job ${id} still ${r.json.status}`);
  }
}

describe.skipIf(!audioAvailable)('the speech queue under a hostile media server', { timeout: 120_000 }, () => {
  it("one account's held decodes take one slot; another account's job runs beside them and succeeds", async () => {
    const hostile = await s.newKey({ credits: 10, rateLimit: 100_000 });
    const first = await rest(s.url, 'POST', '/subtitles', {
      key: hostile.key,
      body: { url: files.url('/held-1.webm'), mode: 'generate' },
    });
    expect(first.status).toBe(202);
    await until(hostile.key, first.json.job.id, (st) => st === 'running');
    const second = await rest(s.url, 'POST', '/subtitles', {
      key: hostile.key,
      body: { url: files.url('/held-2.webm'), mode: 'generate' },
    });
    expect(second.status).toBe(202);

    const other = await s.newKey({ credits: 10, rateLimit: 100_000 });
    const r = await rest(s.url, 'POST', '/subtitles', {
      key: other.key,
      body: { url: files.url('/talk.webm'), mode: 'generate' },
    });
    expect(r.status).toBe(202);
    const done = await until(other.key, r.json.job.id, (st) => st === 'succeeded' || st === 'failed');
    expect(done).toMatchObject({ status: 'succeeded', creditsCharged: 1 });

    // The hostile account's jobs: the first still decoding, the second never started.
    expect((await rest(s.url, 'GET', `/jobs/${first.json.job.id}`, { key: hostile.key })).json.status).toBe('running');
    expect((await rest(s.url, 'GET', `/jobs/${second.json.job.id}`, { key: hostile.key })).json.status).toBe('queued');
  });
});
