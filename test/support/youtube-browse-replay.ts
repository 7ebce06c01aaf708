// Replays the recorded InnerTube browse/search/resolve_url answers in ../shared/fixtures/youtube-browse (NewPipe
// mocks; see its SOURCES.md) for the requests that match the recorded ones: the same endpoint and the same
// continuation token, browseId + params, search query, or resolved URL. Search `params` are not compared:
// youtubei.js encodes the "videos" filter without NewPipe's extra flag. Files are read in place, never copied.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { FakeAnswer } from './fake-youtube.ts';
import { REPO_ROOT } from './fixture-files.ts';

const BROWSE_DIR = resolve(REPO_ROOT, process.env.YOUTUBE_BROWSE_FIXTURES_DIR ?? '../shared/fixtures/youtube-browse');
export const browseAvailable = existsSync(resolve(BROWSE_DIR, 'SOURCES.md'));
if (!browseAvailable) {
  // In CI a missing fixture set is a broken checkout, not a reason to skip.
  if (process.env.CI)
    throw new Error(
      `[listing tests] CI is set but the recorded browse fixtures are absent (looked in ${BROWSE_DIR}; set YOUTUBE_BROWSE_FIXTURES_DIR)`,
    );
  console.warn(
    `[listing tests] browse fixtures are absent (looked in ${BROWSE_DIR}); skipping the tests that need them`,
  );
}

interface Recorded {
  file: string;
  path: string;
  body: Record<string, unknown>;
  responseBody: string;
}

let recorded: Recorded[] | undefined;
function load(): Recorded[] {
  recorded ??= readdirSync(BROWSE_DIR)
    .filter((f) => f.endsWith('.json'))
    .map((file) => {
      const mock = JSON.parse(readFileSync(resolve(BROWSE_DIR, file), 'utf8'));
      // dataToSend holds signed Java bytes.
      const bytes = Buffer.from((mock.request.dataToSend as number[]).map((b) => b & 0xff));
      return {
        file,
        path: new URL(mock.request.url).pathname,
        body: JSON.parse(bytes.toString('utf8')),
        responseBody: mock.response.responseBody as string,
      };
    });
  return recorded;
}

const unescapeValue = (v: unknown) => (typeof v === 'string' ? decodeURIComponent(v) : v);

function matches(r: Recorded, path: string, body: Record<string, unknown>): boolean {
  if (!path.endsWith(r.path)) return false;
  if (body.continuation || r.body.continuation) return body.continuation === r.body.continuation;
  if (r.body.browseId)
    return body.browseId === r.body.browseId && unescapeValue(body.params) === unescapeValue(r.body.params);
  if (r.body.query) return body.query === r.body.query;
  if (r.body.url) return body.url === r.body.url;
  return false;
}

/** The recorded answer for an InnerTube POST, or undefined when none was recorded for it. */
export function replayBrowse(url: URL, rawBody: string | undefined): FakeAnswer | undefined {
  if (!/\/youtubei\/v1\/(browse|search|navigation\/resolve_url)$/.test(url.pathname)) return undefined;
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(rawBody ?? '{}');
  } catch {
    return { status: 400, body: '{"error":{"code":400,"message":"bad json"}}' };
  }
  const hit = load().find((r) => matches(r, url.pathname, body));
  // What InnerTube answers for an id it does not know.
  return hit
    ? { status: 200, body: hit.responseBody }
    : { status: 404, body: '{"error":{"code":404,"status":"NOT_FOUND"}}' };
}

/** The first page of each recorded listing, and what it holds. */
export const BROWSE = {
  playlist: { id: 'PLMC9KNkIncKtPzgY-5rmhvj7fax8fdxoj', pages: [100, 100] },
  channelVideos: {
    id: 'UCTwECeGqMZee77BjdoYtI2Q',
    user: 'https://www.youtube.com/user/creativecommons',
    recordedPages: [30, 30],
  },
  channelShorts: { id: 'UCh8gHdtzO2tXd593_bjErWg', recordedPages: [48, 48] },
  search: { query: 'test', recordedPages: [30, 20] },
} as const;
