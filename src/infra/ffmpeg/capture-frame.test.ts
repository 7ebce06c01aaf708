import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import type { FrameSource } from '../../domain/ports.ts';
import { cachedTestVideo, secondShown } from '../../../test/support/make-video.ts';
import { serveFile, startVideoServer, type VideoServer } from '../../../test/support/video-server.ts';
import { createFfmpegFrameGrabber } from './capture-frame.ts';
import { findFfmpeg } from './find-ffmpeg.ts';
import { probeFfmpeg } from './probe-ffmpeg.ts';

const ffmpeg = findFfmpeg({ pathEnv: process.env.PATH });
const packaged = findFfmpeg({ pathEnv: '' });
const work = mkdtempSync(join(tmpdir(), 'capture-frame-'));
// Records every run, so security tests can assert ffmpeg was never started.
const marker = join(work, 'spawned');
const recordingFfmpeg = join(work, 'ffmpeg');
writeFileSync(recordingFfmpeg, `#!/bin/sh\necho "$@" >> '${marker}'\nexec '${ffmpeg.path}' "$@"\n`);
chmodSync(recordingFfmpeg, 0o755);

let short: string; // 20 s, 320x180, 25 fps
let long: string; // 3 h, 160x90, 1 fps
let server: VideoServer; // the allowed origin
let other: VideoServer; // a host that must never be reached
let sheets: string[];

const stream = (url: string): FrameSource => ({ kind: 'stream', url, width: 320, height: 180 });
const storyboard = (sheetUrl: (i: number) => string): FrameSource => ({
  kind: 'storyboard',
  sheetUrl,
  thumbWidth: 80,
  thumbHeight: 46,
  columns: 4,
  rows: 3,
  interval: 1,
  count: 20,
});

beforeAll(async () => {
  [short, long] = await Promise.all([
    cachedTestVideo({ seconds: 20, width: 320, height: 180, fps: 25, keyframeEvery: 2 }),
    cachedTestVideo({ seconds: 3 * 3600 }),
  ]);
  // Storyboard sheets like YouTube's: one 80x46 thumbnail per second, 4x3 per sheet.
  const made = spawnSync(ffmpeg.path, [
    '-y',
    '-loglevel',
    'error',
    '-i',
    short,
    '-vf',
    'fps=1,scale=80:46,tile=4x3',
    join(work, 'sheet-%d.jpg'),
  ]);
  expect(made.status).toBe(0);
  sheets = [1, 2].map((n) => join(work, `sheet-${n}.jpg`));
  other = await startVideoServer({ '/v.mp4': { file: short } });
  const hls = join(work, 'p.m3u8');
  writeFileSync(hls, `#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:10,\n${other.url('/v.mp4')}\n#EXT-X-ENDLIST\n`);
  server = await startVideoServer({
    '/short.mp4': { file: short },
    '/long.mp4': { file: long },
    '/sb/0.jpg': { file: sheets[0]!, contentType: 'image/jpeg' },
    '/sb/1.jpg': { file: sheets[1]!, contentType: 'image/jpeg' },
    '/hang': { hang: true },
    '/moved': { redirect: '/short.mp4' },
    '/to-other': { redirect: other.url('/v.mp4') },
    '/to-file': { redirect: 'file:///etc/passwd' },
    '/playlist.m3u8': { file: hls, contentType: 'application/vnd.apple.mpegurl' },
    // Answers the one-byte preflight, then hangs ffmpeg's own requests.
    '/slow.mp4': {
      handle: (req, res, served) =>
        req.headers.range === 'bytes=0-0' ? serveFile(req, res, served, short, 'video/mp4') : undefined,
    },
    // Answers the preflight, then redirects ffmpeg elsewhere: only ffmpeg's max_redirects=0 stops that.
    '/sneaky.mp4': {
      handle: (req, res, served) => {
        if (req.headers.range === 'bytes=0-0') return serveFile(req, res, served, short, 'video/mp4');
        served.status = 302;
        res.writeHead(302, { location: other.url('/v.mp4') }).end();
      },
    },
  });
}, 60_000);

afterAll(async () => {
  await Promise.all([server?.close(), other?.close()]);
  rmSync(work, { recursive: true, force: true });
});

beforeEach(() => {
  server.requests.length = 0;
  other.requests.length = 0;
  rmSync(marker, { force: true });
});

const grabber = (opts: { ffmpegPath?: string; timeoutMs?: number; maxConcurrent?: number } = {}) =>
  createFfmpegFrameGrabber({ ffmpegPath: ffmpeg.path, extraOrigins: [server.origin], ...opts });

describe.each([
  ['ffmpeg on PATH', ffmpeg.path],
  ['packaged fallback', packaged.path],
])('capture from a stream (%s)', (_, ffmpegPath) => {
  it.each([0, 1, 3.5, 7.2, 12.5, 19.5])('shows what the video shows at t=%s', async (t) => {
    const image = await grabber({ ffmpegPath }).capture(stream(server.url('/short.mp4')), t, 320);
    expect(image.mimeType).toBe('image/jpeg');
    expect(await secondShown(image.bytes)).toBe(Math.floor(t));
  });

  it.each([
    [640, 360],
    [320, 180],
    [100, 56], // 56.25, rounded to an even height
    [33, 18],
  ])('scales to width %s keeping the aspect ratio', async (width, height) => {
    const image = await grabber({ ffmpegPath }).capture(stream(server.url('/short.mp4')), 2, width);
    expect(image).toMatchObject({ width, height });
  });
});

describe.each([
  ['ffmpeg on PATH', ffmpeg.path],
  ['packaged fallback', packaged.path],
])('the frame on screen at t, at 1 frame per second (%s)', (_, ffmpegPath) => {
  // Each frame lasts a whole second here, so "the next frame" would be a second late.
  it.each([
    [100.5, 100],
    [2547.99, 2547],
    [10_740, 10_740 % 4096],
    [10_799.5, 10_799 % 4096],
  ])('t=%s shows second %s', async (t, second) => {
    const image = await grabber({ ffmpegPath }).capture(stream(server.url('/long.mp4')), t, 160);
    expect(await secondShown(image.bytes)).toBe(second);
  });
});

describe('late seek in a 3-hour video', () => {
  it('reads a small fraction of the file', async () => {
    const g = grabber();
    const size = statSync(long).size;
    const timings: Record<string, { ms: number; bytes: number }> = {};
    for (const [label, t] of [
      ['0:01', 1],
      ['2:59:00', 10_740],
    ] as const) {
      server.requests.length = 0;
      const started = performance.now();
      const image = await g.capture(stream(server.url('/long.mp4')), t, 320);
      timings[label] = { ms: Math.round(performance.now() - started), bytes: server.bytesSent() };
      expect(await secondShown(image.bytes)).toBe(t % 4096); // the colours repeat every 4096 s
    }
    console.log(`file ${size} bytes; capture timings`, timings);
    // It jumped near the end rather than reading through. The first request (bytes=0-, for the moov atom) counts
    // what the kernel buffered before ffmpeg hung up, a few MB on loopback, hence the loose bound.
    const starts = server.requests.map((r) => Number(/^bytes=(\d+)-/.exec(r.range ?? '')?.[1] ?? 0));
    expect(Math.max(...starts)).toBeGreaterThan(size * 0.9);
    expect(timings['2:59:00']!.bytes).toBeLessThan(size * 0.25);
  });

  it('fails clearly past the end of the video', async () => {
    await expect(grabber().capture(stream(server.url('/long.mp4')), 3 * 3600 + 60, 320)).rejects.toMatchObject({
      code: 'FRAME_FAILED',
      message: expect.stringMatching(/past the end/),
    });
  });
});

describe('capture from a storyboard', () => {
  it.each([0, 5, 11.5, 12, 17])('crops the thumbnail for t=%s', async (t) => {
    const image = await grabber().capture(
      storyboard((i) => server.url(`/sb/${i}.jpg`)),
      t,
      320,
    );
    expect(image).toMatchObject({ mimeType: 'image/jpeg', width: 80, height: 46 }); // never scaled up
    expect(await secondShown(image.bytes)).toBe(Math.floor(t));
    expect(server.requests.map((r) => r.path)).toEqual([`/sb/${t < 12 ? 0 : 1}.jpg`]);
  });

  it('scales down to a smaller width', async () => {
    const image = await grabber().capture(
      storyboard((i) => server.url(`/sb/${i}.jpg`)),
      3,
      40,
    );
    expect(image).toMatchObject({ width: 40, height: 24 });
  });

  it('fails on a missing sheet', async () => {
    await expect(
      grabber().capture(
        storyboard((i) => server.url(`/sb/none-${i}.jpg`)),
        3,
        40,
      ),
    ).rejects.toMatchObject({
      code: 'FRAME_FAILED',
      message: expect.stringMatching(/HTTP 404/),
    });
  });
});

describe('errors', () => {
  it('follows a redirect within the allowed origin', async () => {
    const image = await grabber().capture(stream(server.url('/moved')), 4, 160);
    expect(await secondShown(image.bytes)).toBe(4);
  });

  it('times out and kills ffmpeg', async () => {
    // Long enough for ffmpeg to start and connect on a loaded machine; the slow stream never finishes in it.
    await expect(grabber({ timeoutMs: 10_000 }).capture(stream(server.url('/slow.mp4')), 4, 160)).rejects.toMatchObject(
      {
        code: 'FRAME_FAILED',
        message: expect.stringMatching(/timed out/),
      },
    );
    const ffmpegRequest = server.requests.find((r) => r.range !== 'bytes=0-0');
    expect(ffmpegRequest).toBeDefined();
    await ffmpegRequest!.closed; // the connection closes only when the process is gone
  });

  it('times out a preflight that hangs', async () => {
    await expect(grabber({ timeoutMs: 500 }).capture(stream(server.url('/hang')), 4, 160)).rejects.toMatchObject({
      code: 'FRAME_FAILED',
    });
  });

  it('stops and kills ffmpeg when aborted', async () => {
    const ac = new AbortController();
    const capture = grabber({ ffmpegPath: recordingFfmpeg }).capture(
      stream(server.url('/slow.mp4')),
      4,
      160,
      ac.signal,
    );
    await expect.poll(() => existsSync(marker)).toBe(true);
    ac.abort(new Error('client went away'));
    await expect(capture).rejects.toThrow('client went away');
    await server.requests.find((r) => r.range !== 'bytes=0-0')?.closed;
  });

  it('does not start when already aborted', async () => {
    await expect(
      grabber({ ffmpegPath: recordingFfmpeg }).capture(stream(server.url('/short.mp4')), 1, 160, AbortSignal.abort()),
    ).rejects.toThrow();
    expect(server.requests).toHaveLength(0);
    expect(existsSync(marker)).toBe(false);
  });

  it('runs at most maxConcurrent captures at once', async () => {
    const g = grabber({ timeoutMs: 800, maxConcurrent: 1 });
    const [first, second] = await Promise.allSettled([
      g.capture(stream(server.url('/slow.mp4')), 4, 160),
      g.capture(stream(server.url('/short.mp4')), 4, 160), // waits for the first's slot, and times out waiting
    ]);
    expect(first).toMatchObject({ status: 'rejected', reason: { code: 'FRAME_FAILED' } });
    expect(second).toMatchObject({ status: 'rejected', reason: { message: expect.stringMatching(/timed out/) } });
    expect(server.requests.some((r) => r.path === '/short.mp4')).toBe(false);
  });

  it.each([
    [-1, 160],
    [Number.NaN, 160],
    [Infinity, 160],
    [1, 0],
    [1, 12.5],
    [1, 100_000],
  ])('refuses t=%s width=%s as INVALID_REQUEST', async (t, width) => {
    await expect(grabber().capture(stream(server.url('/short.mp4')), t, width)).rejects.toMatchObject({
      code: 'INVALID_REQUEST',
    });
    expect(server.requests).toHaveLength(0);
  });
});

describe('security: what is never opened', () => {
  const refused = async (source: FrameSource) => {
    await expect(grabber({ ffmpegPath: recordingFfmpeg }).capture(source, 1, 160)).rejects.toMatchObject({
      code: 'FRAME_FAILED',
    });
    expect(existsSync(marker) ? readFileSync(marker, 'utf8') : '').toBe('');
    expect(other.requests).toHaveLength(0);
  };

  it.each([
    'file:///etc/passwd',
    '/etc/passwd',
    'concat:/etc/passwd|/etc/hosts',
    'data:video/mp4;base64,AAAAIGZ0eXBpc29t',
    'https://example.com/video.mp4',
    'http://localhost:1/v.mp4',
  ])('refuses the stream URL %s before ffmpeg runs', async (url) => {
    await refused(stream(url));
  });

  it('refuses a loopback origin that is not the configured one', async () => {
    await refused(stream(other.url('/v.mp4')));
  });

  it('refuses a redirect to another host without requesting it', async () => {
    await refused(stream(server.url('/to-other')));
    expect(server.requests.map((r) => r.path)).toEqual(['/to-other']);
  });

  it('refuses a redirect to a local file', async () => {
    await refused(stream(server.url('/to-file')));
  });

  it('refuses storyboard sheets on other hosts', async () => {
    await refused(storyboard((i) => other.url(`/sb/${i}.jpg`)));
    await refused(storyboard(() => 'file:///etc/passwd'));
  });

  it('does not let an HLS playlist from an allowed host open other URLs', async () => {
    await expect(grabber().capture(stream(server.url('/playlist.m3u8')), 1, 160)).rejects.toMatchObject({
      code: 'FRAME_FAILED',
    });
    expect(other.requests).toHaveLength(0);
  });

  it('does not let ffmpeg follow a redirect the preflight did not see', async () => {
    if (!(await probeFfmpeg(ffmpeg.path)).maxRedirects) return; // the residual risk of builds without max_redirects
    await expect(grabber().capture(stream(server.url('/sneaky.mp4')), 1, 160)).rejects.toMatchObject({
      code: 'FRAME_FAILED',
    });
    expect(other.requests).toHaveLength(0);
  });

  it('keeps URLs out of error messages', async () => {
    const err = await grabber()
      .capture(stream(server.url('/sneaky.mp4?signature=secret')), 1, 160)
      .catch((e: Error) => e);
    expect(String((err as Error).message)).not.toMatch(/secret|127\.0\.0\.1/);
  });
});
