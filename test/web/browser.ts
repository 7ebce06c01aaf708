// Headless Debian Chromium driven by playwright-core, started the way this machine needs (see README: tests).
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';

const ARTIFACTS = path.resolve('test-artifacts');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Browser tests run wherever Chromium is installed, and always in CI (where its absence fails the run). */
export const browserAvailable = existsSync(CHROMIUM) || !!process.env.CI;
if (!browserAvailable) {
  console.warn(
    `[web tests] ${CHROMIUM} is absent: skipping the browser tests (Debian: apt-get install chromium; or set CHROMIUM_PATH)`,
  );
}

/** playwright's launch() gives every browser a fresh, empty profile directory of its own (no --user-data-dir). */
export async function launchBrowser(): Promise<Browser> {
  mkdirSync(ARTIFACTS, { recursive: true });
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

export const screenshotPath = (name: string) => path.join(ARTIFACTS, `${name}.png`);
