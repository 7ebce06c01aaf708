// Where the YouTube tests find fixtures. The shared recorded set lives outside the repo and is never copied in
// (YOUTUBE_FIXTURES_DIR, default ../shared/fixtures/youtube from the repo root); our own hand-written ones live in
// test/fixtures/youtube-own.
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const SHARED_DIR = resolve(REPO_ROOT, process.env.YOUTUBE_FIXTURES_DIR ?? '../shared/fixtures/youtube');
export const OWN_DIR = resolve(REPO_ROOT, 'test/fixtures/youtube-own');
export const sharedAvailable = existsSync(resolve(SHARED_DIR, 'SOURCES.md'));

if (!sharedAvailable) {
  console.warn(`[youtube tests] shared YouTube fixtures are absent (looked in ${SHARED_DIR}; set YOUTUBE_FIXTURES_DIR); skipping the tests that need them`);
}

export const readShared = (name: string) => readFileSync(resolve(SHARED_DIR, name), 'utf8');
export const readOwn = (name: string) => readFileSync(resolve(OWN_DIR, name), 'utf8');
