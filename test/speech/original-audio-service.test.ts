// Speech-to-text hears the original audio track, never a dub, through the whole service: POST /subtitles
// mode=generate, the job, the streams chain, ffmpeg reading the stream, the engine. The player is crafted from the
// recorded multi-audio answer (test/support/dubbed-audio-player.ts: an AI-dubbed Spanish track marked default and
// cheaper than the original); the loopback googlevideo serves the speech fixtures' audio for whichever format the
// service asks for and records which one it was (the stream URL's own xtags and itag, as YouTube signs them).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rest } from '../support/clients.ts';
import { DUBBED_VIDEO, dubbedDefaultPlayer } from '../support/dubbed-audio-player.ts';
import { startFakeWhisper, type FakeWhisper } from '../support/fake-whisper.ts';
import { sharedAvailable } from '../support/fixture-files.ts';
import { audioAvailable, speechProgramme } from '../support/speech-audio.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';
import { serveFile, startVideoServer, type VideoServer } from '../support/video-server.ts';

const run = audioAvailable && sharedAvailable;

let yt: VideoServer;
let whisper: FakeWhisper;
let s: TestServer;
/** The query of every audio request that got a body (the preflight's one-byte probe excluded). */
const audioAsked: URLSearchParams[] = [];

beforeAll(async () => {
  if (!run) return;
  const programme = speechProgramme();
  const player = JSON.stringify(dubbedDefaultPlayer({ originalTagged: true }));
  yt = await startVideoServer({
    '/youtubei/v1/player': {
      handle: (_req, res, served) => {
        served.status = 200;
        res.writeHead(200, { 'content-type': 'application/json' }).end(player);
      },
    },
    '/videoplayback': {
      handle: (req, res, served) => {
        if (req.headers.range !== 'bytes=0-0') audioAsked.push(new URL(req.url ?? '/', 'http://x').searchParams);
        serveFile(req, res, served, programme.file, 'audio/webm');
      },
    },
  });
  whisper = await startFakeWhisper();
  s = await startTestServer({
    YOUTUBE_BASE_URL: yt.origin,
    STT_ENGINE: 'openai-compatible',
    STT_BASE_URL: whisper.origin,
    STT_MODEL: 'whisper-test',
  });
}, 120_000);
afterAll(async () => {
  await s?.close();
  await yt?.close();
  await whisper?.close();
});

async function finished(key: string, id: string) {
  for (const until = Date.now() + 60_000; ; await new Promise((r) => setTimeout(r, 100))) {
    const r = await rest(s.url, 'GET', `/jobs/${id}`, { key });
    if (r.json.status === 'succeeded' || r.json.status === 'failed') return r.json;
    if (Date.now() > until) throw new Error(`job ${id} still ${r.json.status}`);
  }
}

describe.skipIf(!run)('the audio speech-to-text hears, through the service', { timeout: 120_000 }, () => {
  it('the original English track, not the AI dub YouTube marks default', async () => {
    const { key } = await s.newKey({ credits: 100 });
    const r = await rest(s.url, 'POST', '/subtitles', { key, body: { videoId: DUBBED_VIDEO, mode: 'generate' } });
    expect(r.status).toBe(202);
    const job = await finished(key, r.json.job.id);
    expect(job.status).toBe('succeeded');
    expect(job.result.transcript).toMatchObject({ source: 'speech-to-text', videoId: DUBBED_VIDEO });
    expect(whisper.requests.length).toBeGreaterThan(0);
    expect(audioAsked.length).toBeGreaterThan(0);
    for (const q of audioAsked) {
      expect(q.get('xtags')).toBe('acont=original:lang=en');
      expect(q.get('itag')).not.toBeNull();
    }
  });
});
