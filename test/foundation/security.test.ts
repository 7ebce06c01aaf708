// The shared security and money checks, applied to every keyed procedure: one line each.
import { afterAll, beforeAll } from 'vitest';
import { freshVideoId, fakeVideoSource } from '../support/fake-video-source.ts';
import {
  describeKeyedProcedureChecks,
  describeRemainingProcedures,
  expectEveryProcedureCovered,
} from '../support/security-checks.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({}, { youtube: fakeVideoSource() });
});
afterAll(() => s?.close());
const server = () => s;

describeKeyedProcedureChecks('credits.get', server, { input: {} });
describeKeyedProcedureChecks('credits.history', server, { input: {} });
// An invalid id answers 400 once the key has passed, so no YouTube is needed to tell auth apart.
describeKeyedProcedureChecks('videos.info', server, {
  input: { videoId: 'x' },
  authed: { status: 400, code: 'INVALID_REQUEST' },
});
describeKeyedProcedureChecks('videos.tracks', server, {
  input: { videoId: 'x' },
  authed: { status: 400, code: 'INVALID_REQUEST' },
});
describeKeyedProcedureChecks('subtitles.get', server, { input: () => ({ videoId: freshVideoId() }), price: 2 });

// Past the fake video's 60 s: answers 400 once the key has passed (frames themselves are tested in test/frames).
describeKeyedProcedureChecks('frames.capture', server, {
  input: { videoId: 'dQw4w9WgXcQ', t: 61 },
  authed: { status: 400, code: 'INVALID_REQUEST' },
  skip: ['mcp'],
});
describeKeyedProcedureChecks('frames.get', server, {
  input: { videoId: 'dQw4w9WgXcQ', t: 61 },
  authed: { status: 400, code: 'INVALID_REQUEST' },
  skip: ['rest'],
});

// No target: refused once the key has passed (watches themselves are tested in test/watches).
describeKeyedProcedureChecks('watches.create', server, { input: {}, authed: { status: 400, code: 'INVALID_REQUEST' } });
describeKeyedProcedureChecks('watches.list', server, { input: {} });
describeKeyedProcedureChecks('watches.get', server, {
  input: { id: 'wat_none' },
  authed: { status: 404, code: 'NOT_FOUND' },
});
describeKeyedProcedureChecks('watches.delete', server, {
  input: { id: 'wat_none' },
  authed: { status: 404, code: 'NOT_FOUND' },
});

// Procedures named nowhere get the checks with input `{}` (a new free one needs no line). The LLM-backed ones need a
// fake Anthropic server and get the same checks in test/llm/security.test.ts, the listing ones (recorded browse
// answers) in test/listing/security.test.ts, the batch ones in test/batches/security.test.ts.
const COVERED_ELSEWHERE = [
  'transcripts.translate',
  'summaries.create',
  'articles.search',
  'articles.get',
  'jobs.get',
  'listing.playlist',
  'listing.channel',
  'listing.search',
  'batches.create',
  'batches.get',
  'batches.cancel',
];
describeRemainingProcedures(server, COVERED_ELSEWHERE);
expectEveryProcedureCovered(COVERED_ELSEWHERE);
