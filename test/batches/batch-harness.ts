// The service with recorded YouTube (player and caption fixtures, plus the browse/search answers) on a loopback
// server, and webhooks allowed to reach a receiver on 127.0.0.1. Only this composition allows loopback callbacks:
// the address policy is injected here; the production one (isPublicAddress) is what batches-ssrf.test.ts meets.
import { createWebhookTransport } from '../../src/infra/webhooks/webhook-transport.ts';
import { recordedRoutes } from '../transcripts/recorded-youtube.ts';
import { startLoopbackYoutube, type LoopbackYoutube } from '../support/loopback-youtube.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';
import { replayBrowse } from '../support/youtube-browse-replay.ts';

export interface BatchHarness {
  s: TestServer;
  yt: LoopbackYoutube;
  close(): Promise<void>;
}

export async function startBatchHarness(env: Record<string, string> = {}): Promise<BatchHarness> {
  const routes = recordedRoutes();
  const yt = await startLoopbackYoutube({
    ...routes,
    other: (url, body) => replayBrowse(url, body) ?? { status: 404, body: 'no route' },
  });
  const s = await startTestServer(
    { YOUTUBE_BASE_URL: yt.origin, WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_RETRY_BASE_MS: '50', ...env },
    { webhookTransport: createWebhookTransport({ policy: (ip) => ip === '127.0.0.1' }) },
  );
  return {
    s,
    yt,
    async close() {
      await s.close();
      await yt.close();
    },
  };
}
