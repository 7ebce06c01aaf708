// Attacks on the residential egress through the real service: a residential answer far larger than its
// reservation, and what a caller, a log or /metrics could learn of a proxy's credentials.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rest } from '../support/clients.ts';
import { createTestDatabase } from '../support/databases.ts';
import { readShared, sharedAvailable } from '../support/fixture-files.ts';
import { startForwardProxy, type ForwardProxy } from '../support/forward-proxy.ts';
import { isPlayer, startLoopbackYoutube, type LoopbackYoutube } from '../support/loopback-youtube.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';
import { ID, recordedRoutes } from '../transcripts/recorded-youtube.ts';

const BUDGET = 300_000;
const HUGE_RANDOM_BYTES = 12_000_000;

describe.skipIf(!sharedAvailable)('a residential answer far larger than its reservation', { timeout: 60_000 }, () => {
  let yt: LoopbackYoutube;
  let proxy: ForwardProxy;
  let server: TestServer;
  beforeAll(async () => {
    yt = await startLoopbackYoutube(recordedRoutes(), { gzip: true });
    const botCheck = readShared('player.bot-check.login-required.json');
    // Incompressible, so gzip on the wire keeps it about as large: 16 MB through the paid exit if nothing stops it.
    const huge = JSON.stringify({ padding: randomBytes(HUGE_RANDOM_BYTES).toString('base64') });
    yt.setGate((r) => {
      if (r.kind !== 'player' || r.videoId !== ID.captions9) return undefined;
      return r.remoteAddress === '127.0.0.1' ? { body: botCheck } : { body: huge };
    });
    proxy = await startForwardProxy({ localAddress: '127.0.0.2' });
    server = await startTestServer(
      {
        YOUTUBE_BASE_URL: yt.origin,
        YOUTUBE_RESIDENTIAL_PROXY_URLS: `http://res-user:res-secret@${new URL(proxy.url).host}`,
        YOUTUBE_COOLDOWN_SECONDS: '0',
        YOUTUBE_RESIDENTIAL_BYTES_PER_HOUR: String(BUDGET),
      },
      {},
      { database: await createTestDatabase() },
    );
  });
  afterAll(async () => {
    await server?.close();
    await proxy?.close();
    await yt?.close();
  });

  it('is cut off within the budget: the proxy carries no more than the hour has left, the caller gets a clear error', async () => {
    const { key } = await server.newKey({ credits: 10 });
    const r = await rest(server.url, 'POST', '/subtitles', { key, body: { videoId: ID.captions9 } });
    expect(r.status, r.text).not.toBe(500);
    expect(r.status, r.text).not.toBe(200);
    expect(r.json.error.code).toBeTruthy();
    expect(r.text).not.toContain('res-secret');
    expect(yt.requests.filter(isPlayer(ID.captions9)).map((q) => q.remoteAddress)).toContain('127.0.0.2');
    // The service cut the answer off: the proxy carried a fraction of it. The proxy counts what it wrote into its
    // sockets, which includes what the kernel's loopback buffers held unread when the service closed (they grow to
    // several MB here, so only a fraction can be asserted); the service's own count below is the exact one.
    expect(proxy.bytes()).toBeLessThan(HUGE_RANDOM_BYTES / 2);
    const [row] = await server.deps.sql<{ bytes: number }[]>`
      select coalesce(sum(bytes), 0)::int as bytes from youtube_residential_bytes`;
    expect(row!.bytes).toBeGreaterThan(0);
    expect(row!.bytes).toBeLessThanOrEqual(BUDGET + 128 * 1024);
  });
});
