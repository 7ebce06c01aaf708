// Headless Debian Chromium driven by playwright-core, started the way this machine needs (see README: tests).
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { needsSystemTool } from '../support/system-needs.ts';

const ARTIFACTS = path.resolve('test-artifacts');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

needsSystemTool('chromium');

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
