// The watches tests' service: two instances on one database, the loopback YouTube of channel-page.ts (its channel
// gains videos between two checks) and a webhook receiver; loopback callbacks are allowed only in this composition.
import { afterAll, beforeAll } from 'vitest';
import { createWebhookTransport } from '../../src/infra/webhooks/webhook-transport.ts';
import { createTestDatabase } from '../support/databases.ts';
import { startLoopbackYoutube, type LoopbackYoutube } from '../support/loopback-youtube.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.ts';
import { browseAvailable } from '../support/youtube-browse-replay.ts';
import { watchRoutes, type ChannelState } from './channel-page.ts';

export interface WatchHarness {
  state: ChannelState;
  yt: LoopbackYoutube;
  receiver: WebhookReceiver;
  s1: TestServer;
  s2: TestServer;
}

/** Starts the harness before the file's tests and stops it after; `env` adds to the watches settings. */
export function useWatchHarness(env: Record<string, string> = {}): WatchHarness {
  const h = { state: { hidden: [] } } as unknown as WatchHarness;
  let db: Awaited<ReturnType<typeof createTestDatabase>> | undefined;
  beforeAll(async () => {
    if (!browseAvailable) return;
    db = await createTestDatabase();
    h.yt = await startLoopbackYoutube(watchRoutes(h.state));
    h.receiver = await startWebhookReceiver();
    const settings = {
      YOUTUBE_BASE_URL: h.yt.origin,
      WEBHOOK_ALLOW_HTTP: 'true',
      WEBHOOK_RETRY_BASE_MS: '50',
      WATCH_MIN_INTERVAL_SECONDS: '60',
      WATCHES_PER_ACCOUNT: '5',
      // One look per hour: the look each instance offers at start is the only scheduled one; the tests drive the rest.
      WATCH_TICK_SECONDS: '3600',
      ...env,
    };
    const shared = { database: { url: db.url, drop: async () => {} } };
    const transport = () => ({ webhookTransport: createWebhookTransport({ policy: (ip) => ip === '127.0.0.1' }) });
    h.s1 = await startTestServer(settings, transport(), shared);
    h.s2 = await startTestServer(settings, transport(), shared);
  });
  afterAll(async () => {
    await h.s1?.close();
    await h.s2?.close();
    await db?.drop();
    await h.yt?.close();
    await h.receiver?.close();
  });
  return h;
}
