// The service with its YouTube traffic on a loopback server that replays the recorded browse/search fixtures.
import { startLoopbackYoutube, type LoopbackYoutube } from '../support/loopback-youtube.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';
import { replayBrowse } from '../support/youtube-browse-replay.ts';
import type { FakeRoutes } from '../support/fake-youtube.ts';

export interface BrowseHarness {
  s: TestServer;
  yt: LoopbackYoutube;
  close(): Promise<void>;
}

export async function startBrowseHarness(
  env: Record<string, string> = {},
  routes: FakeRoutes = {},
  overrides = {},
): Promise<BrowseHarness> {
  const yt = await startLoopbackYoutube({
    ...routes,
    other: (url, body) => replayBrowse(url, body) ?? routes.other?.(url, body) ?? { status: 404, body: 'no route' },
  });
  const s = await startTestServer({ YOUTUBE_BASE_URL: yt.origin, ...env }, overrides);
  return {
    s,
    yt,
    async close() {
      await s.close();
      await yt.close();
    },
  };
}

export const isInnertube = (endpoint: 'browse' | 'search' | 'navigation/resolve_url') => (r: { path: string }) =>
  r.path.endsWith(`/youtubei/v1/${endpoint}`);
