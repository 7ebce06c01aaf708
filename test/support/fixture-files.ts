// Where the YouTube tests find fixtures. The shared recorded set lives outside the repo and is never copied in
// (YOUTUBE_FIXTURES_DIR, default ../shared/fixtures/youtube from the repo root); our own hand-written ones live in
// test/fixtures/youtube-own.
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const SHARED_DIR = resolve(REPO_ROOT, process.env.YOUTUBE_FIXTURES_DIR ?? '../shared/fixtures/youtube');
const OWN_DIR = resolve(REPO_ROOT, 'test/fixtures/youtube-own');
export const sharedAvailable = existsSync(resolve(SHARED_DIR, 'SOURCES.md'));

if (!sharedAvailable) {
  // In CI a missing fixture set is a broken checkout, not a reason to skip: every suite that reads fixtures fails.
  if (process.env.CI) {
    throw new Error(
      `[youtube tests] CI is set but the recorded YouTube fixtures are absent (looked in ${SHARED_DIR}; .ci/run sets YOUTUBE_FIXTURES_DIR)`,
    );
  }
  console.warn(
    `[youtube tests] shared YouTube fixtures are absent (looked in ${SHARED_DIR}; set YOUTUBE_FIXTURES_DIR); skipping the tests that need them`,
  );
}

export const readShared = (name: string) => readFileSync(resolve(SHARED_DIR, name), 'utf8');
export const readOwn = (name: string) => readFileSync(resolve(OWN_DIR, name), 'utf8');
