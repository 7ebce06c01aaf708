// callbackUrl on translations and summaries: the job's event reaches a receiver when the job ends, signed, with the
// job resource (and its result) as data; an immediate answer (a stored translation) calls back too.
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWebhookTransport } from '../../src/infra/webhooks/webhook-transport.ts';
import { rest } from '../support/clients.ts';
import { startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.ts';
import { modelReply, seedVideo, spreadSegments } from './llm-fixtures.ts';

let fake: FakeAnthropic;
let s: TestServer;
let receiver: WebhookReceiver;
beforeAll(async () => {
  // Each model answer takes well over REQUEST_WAIT_MS, so a new translation is always answered 202, however fast the machine.
  fake = await startFakeAnthropic((req) => ({ delayMs: 1500, reply: modelReply(req) }));
  receiver = await startWebhookReceiver();
  // Loopback callbacks are allowed only in this composition (the production policy is isPublicAddress).
  s = await startTestServer(
    {
      ANTHROPIC_API_KEY: 'test',
      ANTHROPIC_BASE_URL: fake.url,
      REQUEST_WAIT_MS: '300',
      WEBHOOK_ALLOW_HTTP: 'true',
      WEBHOOK_RETRY_BASE_MS: '50',
    },
    { webhookTransport: createWebhookTransport({ policy: (ip) => ip === '127.0.0.1' }) },
  );
});
afterAll(async () => {
  await s?.close();
  await fake?.close();
  await receiver?.close();
});

describe('callbackUrl on LLM jobs', { timeout: 120_000 }, () => {
  it('a translation answered 202 calls back when it ends, signed, with the translation; a stored one calls back at once', async () => {
    const segs = spreadSegments(1800, 400, (k) => `cue ${k}`);
    const { videoId } = await seedVideo(s.deps.sql, { duration: 1800, segments: segs });
    const { key, accountId } = await s.newKey({ credits: 5 });
    const start = receiver.received.length;
    const r = await rest(s.url, 'POST', '/transcripts/translate', {
      key,
      body: { videoId, sourceLang: 'en', targetLang: 'fr', callbackUrl: receiver.url },
    });
    expect(r.status).toBe(202);
    const [hook] = (await receiver.waitFor(start + 1)).slice(start);
    const event = JSON.parse(hook!.body);
    expect(event).toMatchObject({
      type: 'job.completed',
      data: { id: r.json.job.id, kind: 'translation', status: 'succeeded', creditsCharged: 1 },
    });
    expect(event.data.result.translation.segments).toHaveLength(400);
    const secret = await s.deps.webhooks.secretFor(accountId);
    const expected = createHmac('sha256', Buffer.from(secret.slice('whsec_'.length), 'base64'))
      .update(`${hook!.headers['webhook-id']}.${hook!.headers['webhook-timestamp']}.${hook!.body}`)
      .digest('base64');
    expect(hook!.headers['webhook-signature']).toBe(`v1,${expected}`);

    // Stored now: answered at once, and called back at once.
    const again = await rest(s.url, 'POST', '/transcripts/translate', {
      key,
      body: { videoId, sourceLang: 'en', targetLang: 'fr', callbackUrl: receiver.url },
    });
    expect(again.status).toBe(200);
    const [second] = (await receiver.waitFor(start + 2)).slice(start + 1);
    expect(JSON.parse(second!.body)).toMatchObject({
      type: 'job.completed',
      data: { id: again.json.job.id, status: 'succeeded', creditsCharged: 0 },
    });
  });

  it('a private callbackUrl is refused before any work or charge', async () => {
    const segs = spreadSegments(600, 50, (k) => `cue ${k}`);
    const { videoId } = await seedVideo(s.deps.sql, { duration: 600, segments: segs });
    const { key } = await s.newKey({ credits: 5 });
    const calls = fake.requests.length;
    const r = await rest(s.url, 'POST', '/summaries', {
      key,
      body: { videoId, lang: 'en', callbackUrl: 'http://192.168.1.10/hook' },
    });
    expect(r.status).toBe(400);
    expect(r.json.error.code).toBe('INVALID_REQUEST');
    expect(fake.requests.length).toBe(calls);
  });
});
