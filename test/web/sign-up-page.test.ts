// The sign-up page follows SIGN_UP: closed says so instead of showing a form; invite asks for the code (or takes it
// from an invite link) and signs the new account in.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createInvite } from '../../src/domain/accounts/sign-up.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';
import { launchBrowser } from './browser.ts';

describe('sign-up page in a browser', () => {
  let browser: Browser;
  const servers: TestServer[] = [];
  beforeAll(async () => {
    browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    for (const s of servers) await s.close();
  });

  it('closed: no form, a clear sentence', async () => {
    const s = await startTestServer({ SIGN_UP: 'closed' });
    servers.push(s);
    const page = await browser.newPage();
    await page.goto(`${s.url}/sign-up`);
    await page.getByRole('heading', { name: 'Sign-up is closed' }).waitFor();
    expect(await page.locator('main').textContent()).toContain('ask its operator for one');
    expect(await page.locator('main form').count()).toBe(0);
  }, 60_000);

  it('invite: the code from the link signs up; a wrong one shows the refusal', async () => {
    const s = await startTestServer({ SIGN_UP: 'invite' });
    servers.push(s);
    const page = await browser.newPage();
    await page.goto(`${s.url}/sign-up?invite=inv_wrong`);
    await page.getByLabel('Email').fill(`invited-${Date.now()}@example.com`);
    await page.getByLabel('Password').fill('a long enough password');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByText('needs an invite code', { exact: false }).waitFor();

    const code = await createInvite(s.deps);
    await page.goto(`${s.url}/sign-up?invite=${code}`);
    await page.getByLabel('Email').fill(`invited-${Date.now()}@example.com`);
    await page.getByLabel('Password').fill('a long enough password');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL(`${s.url}/keys`);
  }, 60_000);
});
