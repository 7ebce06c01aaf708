// Resending a webhook delivery makes the service POST to a URL the account chose; unbounded, it is a traffic
// amplifier against a third party. Resends are bounded per event (RESENDS_PER_EVENT_PER_HOUR) and per account
// (RESENDS_PER_ACCOUNT_PER_HOUR) in the last hour, counted and recorded in one locked step.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  RESENDS_PER_ACCOUNT_PER_HOUR,
  RESENDS_PER_EVENT_PER_HOUR,
  resendWebhook,
} from '../../src/domain/webhooks/deliver-webhook.ts';
import { batchPorts } from '../../src/domain/batches/batch-sources.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';

let s: TestServer;
beforeAll(async () => {
  // The deliveries go to a documentation address nobody answers; only the number of resends matters here.
  s = await startTestServer({ WEBHOOK_RETRY_BASE_MS: '3600000' });
});
afterAll(async () => {
  await s?.close();
});

const event = (accountId: string, jobId: string) =>
  s.deps.webhooks.create({ accountId, jobId, url: 'https://192.0.2.1/hook', event: 'job.completed', body: '{}' });

const refusal = (p: Promise<unknown>) =>
  p.then(
    () => 'sent',
    (e: { code?: string }) => e.code ?? String(e),
  );

describe('webhook resends', () => {
  it(`are refused with RATE_LIMITED past ${RESENDS_PER_EVENT_PER_HOUR} per event per hour`, async () => {
    const { accountId } = await s.newKey();
    const id = await event(accountId, 'bat_one');
    const deps = batchPorts(s.deps);
    for (let i = 0; i < RESENDS_PER_EVENT_PER_HOUR; i++) await resendWebhook(deps, accountId, id);
    expect(await refusal(resendWebhook(deps, accountId, id))).toBe('RATE_LIMITED');
    // A resend of a resend is the same event.
    const [latest] = await s.deps.webhooks.list({ accountId, jobId: 'bat_one', limit: 1 });
    expect(await refusal(resendWebhook(deps, accountId, latest!.id))).toBe('RATE_LIMITED');
  });

  it(`are refused past ${RESENDS_PER_ACCOUNT_PER_HOUR} per account per hour, even spread over many events`, async () => {
    const { accountId } = await s.newKey();
    const deps = batchPorts(s.deps);
    const ids = await Promise.all(
      Array.from({ length: RESENDS_PER_ACCOUNT_PER_HOUR + 1 }, (_, i) => event(accountId, `bat_${i}`)),
    );
    // Concurrent resends cannot pass the bound between a count and an insert.
    const outcomes = await Promise.all(ids.map((id) => refusal(resendWebhook(deps, accountId, id))));
    expect(outcomes.filter((o) => o === 'sent')).toHaveLength(RESENDS_PER_ACCOUNT_PER_HOUR);
    expect(outcomes.filter((o) => o === 'RATE_LIMITED')).toHaveLength(1);
    // Another account is not held back by this one.
    const { accountId: other } = await s.newKey();
    expect(await refusal(resendWebhook(deps, other, await event(other, 'bat_x')))).toBe('sent');
  });
});
