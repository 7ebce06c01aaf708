// Everything an invariant program runs against: the real service (API and workers) on its own database, recorded
// YouTube on loopback (captions and listings), a media file server with a failing route (frames and speech-to-text
// of `media-...` ids), a Whisper-compatible engine, a Messages-API model and a webhook receiver. Loopback is allowed
// for media and callbacks only in this composition (injected address policies), as in test/batches and test/speech.
import { createMediaGateway } from '../../src/infra/net/media-gateway.ts';
import { createWebhookTransport } from '../../src/infra/webhooks/webhook-transport.ts';
import { modelReply } from '../llm/llm-fixtures.ts';
import { recordedRoutes } from '../transcripts/recorded-youtube.ts';
import { startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic.ts';
import { startFakeWhisper, type FakeWhisper } from '../support/fake-whisper.ts';
import { startLoopbackYoutube, type LoopbackYoutube } from '../support/loopback-youtube.ts';
import { speechMedia } from '../support/speech-media.ts';
import { createTestDatabase } from '../support/databases.ts';
import { startKillableWorker, type KillableWorker } from '../support/killable-worker.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';
import { startVideoServer, type VideoServer } from '../support/video-server.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.ts';
import { replayBrowse } from '../support/youtube-browse-replay.ts';

/**
 * How long a replacement keeps starting new workers before its operation fails. A start that meets a database blip
 * fails (as the service's own start would, to be restarted by its supervisor) and is tried again; each start is
 * bounded (killable-worker.ts: 30 s a step), so a replacement ends within this plus one start.
 */
const REPLACE_MS = 60_000;

/** The daily allowance every account gets: charges take it first, so both halves of a balance are exercised. */
export const DAILY_FREE_CREDITS = 3;

export interface InvariantStack {
  s: TestServer;
  yt: LoopbackYoutube;
  files: VideoServer;
  whisper: FakeWhisper;
  model: FakeAnthropic;
  receiver: WebhookReceiver;
  /** accountId -> the video and media ids it asked for, over every program run on this service. */
  asked: Map<string, Set<string>>;
  /** The media token of each account slot (0-2), made on first use. */
  tokens: string[];
  /**
   * Kills the second worker instance (every database connection cut at once, whatever it was doing) and starts a
   * new one in its place; the service's own instance keeps working, and retries the dead one's jobs.
   */
  replaceWorker(): Promise<void>;
  databaseUrl: string;
  /** Workers killed so far. */
  kills: number;
  close(): Promise<void>;
}

/** `database`: a database of the caller's (the benchmark's own); else a test database cloned from the template. */
export async function startInvariantStack(
  opts: {
    database?: { url: string; drop(): Promise<void> };
    /** Where a line per worker start step and kill goes (the long runs print them; CI keeps them in the failure). */
    log?: (line: string) => void;
  } = {},
): Promise<InvariantStack> {
  const media = speechMedia();
  const yt = await startLoopbackYoutube({
    ...recordedRoutes(),
    other: (url, body) => replayBrowse(url, body) ?? { status: 404, body: 'no route' },
  });
  const files = await startVideoServer({
    '/talk.mp4': { file: media.mp4, contentType: 'video/mp4' },
    // The hostile or broken media server: every request is a 500.
    '/broken.mp4': {
      handle: (_req, res, served) => {
        served.status = 500;
        res.writeHead(500).end('broken');
      },
    },
  });
  const whisper = await startFakeWhisper();
  const model = await startFakeAnthropic(modelReply);
  const receiver = await startWebhookReceiver();
  const loopback = (ip: string) => ip === '127.0.0.1';
  const env = {
    YOUTUBE_BASE_URL: yt.origin,
    DAILY_FREE_CREDITS: String(DAILY_FREE_CREDITS),
    WEBHOOK_ALLOW_HTTP: 'true',
    WEBHOOK_RETRY_BASE_MS: '50',
    ANTHROPIC_API_KEY: 'test',
    ANTHROPIC_BASE_URL: model.url,
    STT_ENGINE: 'openai-compatible',
    STT_BASE_URL: whisper.origin,
    STT_MODEL: 'whisper-test',
    RATE_LIMIT_PER_MINUTE: '100000',
    // The loopback YouTube is free: a 10,000-operation run used the default hourly budget up, and its last batches
    // waited 14 minutes for the next hour (correctly, but past what the run waits for work to end).
    YOUTUBE_REQUESTS_PER_HOUR: '1000000',
    YOUTUBE_CAPTION_REQUESTS_PER_HOUR: '1000000',
    // Every program signs up three accounts from 127.0.0.1: a long run makes thousands.
    SIGN_IN_MAX_PER_IP: '1000000',
    // pg-boss's least heartbeat: a killed worker's jobs are retried 10-15 s after the kill.
    JOB_EXPIRE_SECONDS: '10',
  };
  const overrides = () => ({
    webhookTransport: createWebhookTransport({ policy: loopback }),
    mediaGateway: createMediaGateway({ policy: loopback, allowHttp: true }),
  });
  const database = opts.database ?? (await createTestDatabase());
  const s = await startTestServer(env, overrides(), { database });
  // A second instance working the same queues: the one `replaceWorker` kills.
  let started = 0;
  const startWorker = () =>
    startKillableWorker(database.url, env, overrides(), { log: opts.log, label: `worker ${++started}` });
  let worker: KillableWorker = await startWorker();
  const stack: InvariantStack = {
    s,
    yt,
    files,
    whisper,
    model,
    receiver,
    asked: new Map(),
    tokens: [],
    kills: 0,
    databaseUrl: database.url,
    replaceWorker() {
      // One replacement at a time: two at once would each start a worker, and one would never be killed.
      const next = replacing.then(replace, replace);
      replacing = next.catch(() => {});
      return next;
    },
    async close() {
      await replacing;
      await worker.close();
      await s.close();
      await Promise.all([yt.close(), files.close(), whisper.close(), model.close(), receiver.close()]);
      if (!opts.database) await database.drop();
    },
  };
  let replacing: Promise<void> = Promise.resolve();
  async function replace() {
    const t0 = Date.now();
    await worker.kill();
    stack.kills++;
    opts.log?.(`[worker ${started}] killed (kill ${stack.kills})`);
    // The new one may meet a database briefly away (a blip) or full (other clients of a shared server): it is
    // started again once `select 1` answers, while the replacement has time left. Each start is bounded
    // (killable-worker.ts), so a replacement that cannot come up fails the operation with why, never hangs it.
    const errors: string[] = [];
    for (let attempt = 1; ; attempt++) {
      try {
        worker = await startWorker();
        opts.log?.(`[worker ${started}] replacement up in ${Date.now() - t0} ms (attempt ${attempt})`);
        return;
      } catch (err) {
        errors.push(`attempt ${attempt}: ${(err as Error).message}`);
        if (Date.now() - t0 > REPLACE_MS)
          throw new Error(`no replacement worker after ${Date.now() - t0} ms: ${errors.join(' | ')}`);
        await s.deps.sql`select 1`.catch(() => {});
        await new Promise((r) => setTimeout(r, 500 * Math.min(attempt, 4)));
      }
    }
  }
  return stack;
}
