// A loopback youtube.com + googlevideo.com for speech-to-text: /youtubei/v1/player answers recorded player responses
// (one without caption tracks among them), and /videoplayback serves an audio stream made from the speech fixtures,
// whatever format the service picked (the recorded stream URLs are rewritten onto this origin).
import { readShared } from './fixture-files.ts';
import { startFakeWhisper, verboseJson, type FakeWhisper } from './fake-whisper.ts';
import { startTestServer, type TestServer } from './test-server.ts';
import { recordedPlayerRoute } from './media-youtube.ts';
import { speechProgramme, type Programme } from './speech-audio.ts';
import { serveFile, startVideoServer, type VideoServer } from './video-server.ts';

export const SPEECH_VIDEOS = {
  /** No caption tracks at all, plain audio URLs, 288 s long. */
  noCaptions: 'dsMFmonKDD4',
  /** Nine caption tracks, plain audio URLs (for mode=generate). */
  captions: 'GJLlxj_dtq8',
  /** No captions, 6.4 hours long: over the default 4-hour bound. */
  tooLong: 'Fjg5lYqvzUs',
} as const;

const PLAYERS: Record<string, string> = {
  [SPEECH_VIDEOS.noCaptions]: 'player.no-captions.dsMFmonKDD4.json',
  [SPEECH_VIDEOS.captions]: 'player.captions.GJLlxj_dtq8.json',
  [SPEECH_VIDEOS.tooLong]: 'player.no-captions.live-replay.Fjg5lYqvzUs.json',
};

export interface SpeechYoutube extends VideoServer {
  programme: Programme;
  /** Audio requests that got a body (the preflight's one-byte probe excluded). */
  audioDownloads(): number;
}

/**
 * `captions`: caption downloads answer the recorded styled-manual caption file (as the subtitles tests serve it for
 * any track), so the captioned video's mode=auto transcript is its captions; otherwise they answer 404.
 */
export async function startSpeechYoutube(opts: { captions?: boolean } = {}): Promise<SpeechYoutube> {
  const programme = speechProgramme();
  const server = await startVideoServer({
    '/youtubei/v1/player': recordedPlayerRoute(PLAYERS),
    '/videoplayback': { handle: (req, res, served) => serveFile(req, res, served, programme.file, 'audio/webm') },
    // Caption downloads for the captioned video (mode=auto would use them; mode=generate must not).
    '/api/timedtext': {
      handle: (_req, res, served) => {
        served.status = opts.captions ? 200 : 404;
        if (!opts.captions) return void res.writeHead(404).end();
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(readShared('timedtext.styled-manual.json3.sc3-z_2aNX0.json'));
      },
    },
  });
  return Object.assign(server, {
    programme,
    audioDownloads: () => server.requests.filter((r) => r.path === '/videoplayback' && r.range !== 'bytes=0-0').length,
  });
}

/**
 * Between cases: waits until the speech queue is idle (the job of an earlier case may still be completing after its
 * tasks succeeded; a new request would join it by key and then find its transcript deleted), then deletes the stored
 * speech transcripts, so each case transcribes afresh rather than being answered free from the store.
 */
async function resetSpeech(s: TestServer): Promise<void> {
  for (const until = Date.now() + 30_000; Date.now() < until; await new Promise((r) => setTimeout(r, 50))) {
    const [row] = await s.deps.sql<
      { n: number }[]
    >`select count(*)::int as n from pgboss.job where name = 'speech' and state in ('created', 'retry', 'active')`;
    if (row!.n === 0) break;
  }
  await s.deps.sql`delete from transcripts where origin = 'speech'`;
}

/** A loopback YouTube, a fake OpenAI-compatible engine, and a service using both: what the speech tests run against. */
export interface SpeechStack {
  yt: SpeechYoutube;
  whisper: FakeWhisper;
  s: TestServer;
  close(): Promise<void>;
}

export async function startSpeechStack(
  opts: { captions?: boolean; env?: Record<string, string>; deps?: Parameters<typeof startTestServer>[1] } = {},
): Promise<SpeechStack> {
  const yt = await startSpeechYoutube({ captions: opts.captions });
  const whisper = await startFakeWhisper();
  const env = {
    YOUTUBE_BASE_URL: yt.origin,
    STT_ENGINE: 'openai-compatible',
    STT_BASE_URL: whisper.origin,
    STT_MODEL: 'whisper-test',
    ...opts.env,
  };
  const s = await startTestServer(env, opts.deps ?? {});
  return {
    yt,
    whisper,
    s,
    async close() {
      await s.close();
      await yt.close();
      await whisper.close();
    },
  };
}

/** Between cases: the engine answers every file with its length in seconds, and nothing of the last case is left. */
export async function resetSpeechStack({ whisper, s }: SpeechStack): Promise<void> {
  whisper.answer = (r) => ({ body: verboseJson(r.file?.seconds ?? 0) });
  await resetSpeech(s);
}
