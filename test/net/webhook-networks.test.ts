// Webhook receivers on the operator's own network: refused unless WEBHOOK_ALLOWED_NETWORKS names it (then reached,
// at creation and at each attempt); addresses that only look public are refused on a production-composed service;
// and every refusal is the same sentence, whatever the name resolves to.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mcpClient, mcpError, rest, trpcClient } from '../support/clients.ts';
import { pollUntil } from '../transcripts/recorded-youtube.ts';
import { fakeVideoSource, freshVideoId } from '../support/fake-video-source.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.ts';

const REFUSAL = 'callbackUrl is not allowed: its host is not a public address, or does not resolve';
let closed: TestServer;
let open: TestServer;
let receiver: WebhookReceiver;
beforeAll(async () => {
  receiver = await startWebhookReceiver();
  const env = { WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_RETRY_BASE_MS: '50' };
  [closed, open] = await Promise.all([
    startTestServer(env, { youtube: fakeVideoSource() }),
    startTestServer({ ...env, WEBHOOK_ALLOWED_NETWORKS: '127.0.0.1/32' }, { youtube: fakeVideoSource() }),
  ]);
});
afterAll(async () => {
  await closed?.close();
  await open?.close();
  await receiver?.close();
});

const createBatch = async (s: TestServer, callbackUrl: string) => {
  const { key } = await s.newKey({ credits: 10 });
  return { key, r: await rest(s.url, 'POST', '/batches', { key, body: { videos: [freshVideoId()], callbackUrl } }) };
};

describe('WEBHOOK_ALLOWED_NETWORKS', () => {
  it('a receiver on loopback is refused without it', async () => {
    const { r } = await createBatch(closed, receiver.url);
    expect(r.status).toBe(400);
    expect(r.json.error).toEqual({ code: 'INVALID_REQUEST', message: REFUSAL });
  });

  it('and reached with it: the batch is accepted and its signed webhook delivered', async () => {
    const before = receiver.received.length;
    const { key, r } = await createBatch(open, receiver.url);
    expect(r.status).toBe(202);
    const [hook] = (await receiver.waitFor(before + 1)).slice(before);
    expect(JSON.parse(hook!.body)).toMatchObject({ type: 'job.completed', data: { id: r.json.id } });
    await pollUntil(
      async () =>
        (await rest(open.url, 'GET', `/batches/${r.json.id}`, { key })).json.webhooks[0]?.status === 'delivered',
      'the delivery is recorded',
    );
  });

  it('covers only what it names: other loopback addresses and IPv4-compatible forms stay refused', async () => {
    const port = new URL(receiver.url).port;
    for (const host of ['127.0.0.2', '[::1]', '[::7f00:1]'])
      expect((await createBatch(open, `http://${host}:${port}/hooks/subtext`)).r.json.error).toEqual({
        code: 'INVALID_REQUEST',
        message: REFUSAL,
      });
  });
});

describe('addresses that only look public', () => {
  it.each([
    'http://[::127.0.0.1]/',
    'http://[::7f00:1]/',
    'http://[::a00:1]/',
    'http://[::a9fe:a9fe]/',
    'http://[64:ff9b::a00:1]/',
    'http://[2002:a00:1::1]/',
    'http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/',
    'http://2130706433/',
    'http://0x7f.1/',
    'http://0177.0.0.1/',
  ])('%s is refused with 400 INVALID_REQUEST', async (callbackUrl) => {
    const { r } = await createBatch(closed, callbackUrl);
    expect([r.status, r.json.error]).toEqual([400, { code: 'INVALID_REQUEST', message: REFUSAL }]);
  });
});

describe('a refused callbackUrl says nothing about the network', () => {
  it('one sentence for a private answer, a missing name and loopback, on REST, tRPC and MCP', async () => {
    const urls = ['http://10.1.2.3/x', 'http://no-such-host.invalid/x', 'http://localhost/x', 'http://[::1]/x'];
    for (const callbackUrl of urls) {
      const { key, r } = await createBatch(closed, callbackUrl);
      expect([callbackUrl, r.json.error]).toEqual([callbackUrl, { code: 'INVALID_REQUEST', message: REFUSAL }]);
      await expect(
        trpcClient(closed.url, key).batches.create.mutate({ videos: [freshVideoId()], callbackUrl }),
      ).rejects.toMatchObject({ message: REFUSAL, data: { code: 'INVALID_REQUEST' } });
      const client = await mcpClient(closed.url, key);
      const result = await client.callTool({
        name: 'create_batch',
        arguments: { videos: [freshVideoId()], callbackUrl },
      });
      expect(mcpError(result)).toMatchObject({ code: 'INVALID_REQUEST', message: REFUSAL });
      await client.close();
    }
  });
});
