// Review (money/availability): STT_ACCOUNT_CONCURRENCY bounds how many of one account's speech jobs RUN, but its
// waiting jobs still count against the queue-wide QUEUE_MAX_WAITING, and admission checks each request's estimate
// against the balance on its own (nothing reserves it). One account with 1 credit asks for speech-to-text of several
// media URLs whose server holds the connection: one job decodes (until STT_DECODE_TIMEOUT_MS, 30 min by default), the
// rest wait behind it in its group, and every other account is refused SERVICE_BUSY until they drain. A queue one
// account holds against all others.
import { readFileSync, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMediaGateway } from '../../src/infra/net/media-gateway.ts';
import { rest } from '../support/clients.ts';
import { startFakeWhisper, type FakeWhisper } from '../support/fake-whisper.ts';
import { audioAvailable, speechProgramme } from '../support/speech-audio.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';
import { startVideoServer, type VideoServer } from '../support/video-server.ts';

const HELD_AFTER = 64 * 1024;
const MAX_WAITING = 2;
let files: VideoServer;
let whisper: FakeWhisper;
let s: TestServer;

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

const HELD = ['/held-1.webm', '/held-2.webm', '/held-3.webm', '/held-4.webm'];

beforeAll(async () => {
  if (!audioAvailable) return;
  const { file } = speechProgramme();
  whisper = await startFakeWhisper();
  files = await startVideoServer({
    '/talk.webm': { file, contentType: 'audio/webm' },
    ...Object.fromEntries(HELD.map((p) => [p, { handle: stalling(file) }])),
  });
  s = await startTestServer(
    {
      STT_ENGINE: 'openai-compatible',
      STT_BASE_URL: whisper.origin,
      STT_MODEL: 'whisper-test',
      STT_CONCURRENCY: '2',
      STT_ACCOUNT_CONCURRENCY: '1',
      STT_DECODE_TIMEOUT_MS: '600000',
      QUEUE_MAX_WAITING: String(MAX_WAITING),
    },
    { mediaGateway: createMediaGateway({ policy: (ip) => ip === '127.0.0.1', allowHttp: true }) },
  );
}, 120_000);
afterAll(async () => {
  await files?.close();
  await s?.close();
  await whisper?.close();
});

describe.skipIf(!audioAvailable)('the speech queue held by one account', { timeout: 120_000 }, () => {
  it("one account's waiting speech jobs do not lock every other account out of speech-to-text", async () => {
    const hostile = await s.newKey({ credits: 1, rateLimit: 100_000 });
    const statuses: number[] = [];
    for (const path of HELD) {
      const r = await rest(s.url, 'POST', '/subtitles', {
        key: hostile.key,
        body: { url: files.url(path), mode: 'generate' },
      });
      statuses.push(r.status);
    }
    // One credit admits one job: its estimate is held, and the rest are refused before they take a place.
    expect(statuses.filter((st) => st === 202)).toHaveLength(1);
    expect(statuses.filter((st) => st === 402)).toHaveLength(HELD.length - 1);

    const other = await s.newKey({ credits: 10, rateLimit: 100_000 });
    const r = await rest(s.url, 'POST', '/subtitles', {
      key: other.key,
      body: { url: files.url('/talk.webm'), mode: 'generate' },
    });
    expect(r.json.error?.code ?? null).not.toBe('SERVICE_BUSY');
    expect(r.status).toBe(202);
  });
});
