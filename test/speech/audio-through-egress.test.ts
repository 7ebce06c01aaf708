// Audio for speech-to-text through the egress identity that got the stream URL, as frames are: with a proxy identity
// the preflight and ffmpeg's reads (by way of the media gateway) all go through that proxy. Real ffmpeg decodes a
// progressive mp4 (picture and sound in one file, as itag 18 is) served behind a loopback proxy that records requests.
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFfmpegAudioDecoder } from '../../src/infra/ffmpeg/decode-audio.ts';
import { createMediaGateway, type MediaGateway } from '../../src/infra/net/media-gateway.ts';
import { parseAllowedNetworks } from '../../src/allowed-networks.ts';
import { createProxyPool, identityName } from '../../src/infra/youtube/proxy-pool.ts';
import { startForwardProxy, type ForwardProxy } from '../support/forward-proxy.ts';
import { startVideoServer, type VideoServer } from '../support/video-server.ts';
import { needsSystemTool } from '../support/system-needs.ts';

needsSystemTool('ffmpeg');

describe('audio through a proxy identity', () => {
  let media: VideoServer;
  let proxy: ForwardProxy;
  let gateway: MediaGateway;

  beforeAll(async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'subtext-progressive-')), 'progressive.mp4');
    execFileSync('ffmpeg', [
      ...['-hide_banner', '-loglevel', 'error', '-y'],
      ...['-f', 'lavfi', '-i', 'testsrc2=size=160x90:rate=5:duration=4'],
      ...['-f', 'lavfi', '-i', 'sine=frequency=440:duration=4'],
      ...['-c:v', 'libx264', '-preset', 'ultrafast', '-c:a', 'aac', '-shortest', '-movflags', '+faststart', file],
    ]);
    media = await startVideoServer({ '/videoplayback': { file } });
    proxy = await startForwardProxy();
    gateway = createMediaGateway({ allowed: parseAllowedNetworks(['127.0.0.1']) });
  }, 60_000);
  afterAll(async () => {
    await gateway?.stop();
    await proxy?.close();
    await media?.close();
  });

  it('the preflight and ffmpeg’s reads go through the proxy; the sound of a progressive mp4 is decoded', async () => {
    const pool = createProxyPool([proxy.url]);
    const decoder = createFfmpegAudioDecoder({
      ffmpegPath: 'ffmpeg',
      extraOrigins: [media.origin],
      gateway,
      egress: (identity) => pool.dispatcher(identity) as never,
    });
    const audio = await decoder.decode(
      { url: media.url('/videoplayback?itag=18'), egress: identityName(proxy.url, 0) },
      { maxSeconds: 60, maxBytes: 10_000_000 },
    );
    try {
      expect(audio.seconds).toBeCloseTo(4, 0);
      expect(Math.max(...audio.frameRms)).toBeGreaterThan(0.05); // lavfi sine: amplitude 1/8, RMS about 0.09
    } finally {
      await audio.dispose();
    }
    const served = media.requests.filter((r) => r.path === '/videoplayback');
    expect(served.length).toBeGreaterThanOrEqual(2); // the preflight, then ffmpeg's read
    expect(proxy.seen.filter((u) => new URL(u).pathname === '/videoplayback').length).toBe(served.length);
    expect(served.filter((r) => r.userAgent?.startsWith('Lavf'))).toEqual([]);
  });

  it('the machine’s own identity ("direct") is read by ffmpeg itself, as before', async () => {
    const before = media.requests.length;
    const seen = proxy.seen.length;
    const decoder = createFfmpegAudioDecoder({
      ffmpegPath: 'ffmpeg',
      extraOrigins: [media.origin],
      gateway,
      egress: () => undefined,
    });
    const audio = await decoder.decode(
      { url: media.url('/videoplayback?itag=18'), egress: 'direct' },
      { maxSeconds: 60, maxBytes: 10_000_000 },
    );
    await audio.dispose();
    expect(proxy.seen.length).toBe(seen);
    expect(media.requests.slice(before).some((r) => r.userAgent?.startsWith('Lavf'))).toBe(true);
  });
});
