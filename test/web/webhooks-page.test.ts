// The website's /webhooks page in Chromium: it shows the account's signing secret and its recent deliveries (a real
// batch's event, received and verified by a receiver on 127.0.0.1), and its Resend button sends the event again.
import { Webhook } from 'standardwebhooks';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBatchHarness, type BatchHarness } from '../batches/batch-harness.ts';
import { rest } from '../support/clients.ts';
import { createApiKey, grantCredits } from '../support/stores.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.ts';
import { ID, pollUntil } from '../transcripts/recorded-youtube.ts';
import { launchBrowser } from './browser.ts';

describe('the webhooks page in a browser', () => {
  let h: BatchHarness;
  let receiver: WebhookReceiver;
  let browser: Browser;
  let page: Page;
  beforeAll(async () => {
    [h, receiver, browser] = await Promise.all([startBatchHarness(), startWebhookReceiver(), launchBrowser()]);
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await h?.close();
    await receiver?.close();
  });

  it('shows the signing secret and the recent deliveries, and resends one', async () => {
    // Signed up on the website; a key of the same account starts a batch whose event goes to the receiver.
    const email = `hooks-${Date.now()}@example.com`;
    await page.goto(`${h.s.url}/sign-up`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('correct horse battery');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL(`${h.s.url}/keys`);
    const [account] = await h.s.deps.sql<{ id: string }[]>`select id from accounts where email = ${email}`;
    await grantCredits(h.s.deps.sql, account!.id, 10);
    const { key } = await createApiKey(h.s.deps.sql, { accountId: account!.id, name: 'hooks' });
    const created = await rest(h.s.url, 'POST', '/batches', {
      key,
      body: { videos: [ID.own], callbackUrl: receiver.url },
    });
    expect(created.status).toBe(202);
    const [first] = await receiver.waitFor(1);
    const secret = await h.s.deps.webhooks.secretFor(account!.id);
    expect(new Webhook(secret).verify(first!.body, first!.headers)).toMatchObject({
      type: 'job.completed',
      data: { id: created.json.id },
    });
    await pollUntil(
      async () =>
        (await rest(h.s.url, 'GET', `/batches/${created.json.id}`, { key })).json.webhooks[0]?.status === 'delivered',
      'the delivery is recorded',
    );

    await page.goto(`${h.s.url}/webhooks`);
    await expect.poll(() => page.getByLabel('Webhook signing secret').inputValue()).toBe(secret);
    const rows = page.locator('table.deliveries tbody tr');
    await rows.first().waitFor();
    expect(await rows.count()).toBe(1);
    const cells = await rows.first().locator('td').allTextContents();
    expect(cells.slice(1, 6)).toEqual(['job.completed', created.json.id, receiver.url, 'delivered', '1 (last: 200)']);

    // Resend: a new message (its own webhook-id) with the same body, signed with the same secret, listed on the page.
    const deliveryId = first!.headers['webhook-id']!;
    await page.getByRole('button', { name: `Resend ${deliveryId}` }).click();
    const [, again] = await receiver.waitFor(2);
    expect(again!.body).toBe(first!.body);
    expect(again!.headers['webhook-id']).not.toBe(deliveryId);
    expect(new Webhook(secret).verify(again!.body, again!.headers)).toEqual(JSON.parse(first!.body));
    await expect.poll(() => rows.count()).toBe(2);
    await expect
      .poll(() => page.getByRole('button', { name: `Resend ${again!.headers['webhook-id']}` }).count())
      .toBe(1);
  }, 120_000);
});
