// The shared security and money checks, applied to every keyed procedure: one line each.
import { afterAll, beforeAll } from 'vitest';
import { freshVideoId, fakeVideoSource } from '../support/fake-video-source.ts';
import { describeKeyedProcedureChecks, listUncoveredProcedures } from '../support/security-checks.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({}, { youtube: fakeVideoSource() });
});
afterAll(() => s?.close());
const server = () => s;

describeKeyedProcedureChecks('credits.get', server, { input: {} });
// An invalid id answers 400 once the key has passed, so no YouTube is needed to tell auth apart.
describeKeyedProcedureChecks('videos.info', server, { input: { videoId: 'x' }, authed: { status: 400, code: 'INVALID_REQUEST' } });
describeKeyedProcedureChecks('videos.tracks', server, { input: { videoId: 'x' }, authed: { status: 400, code: 'INVALID_REQUEST' } });
describeKeyedProcedureChecks('subtitles.get', server, { input: () => ({ videoId: freshVideoId() }), price: 2 });

// Procedures still to add a line above for (shown as todo, not failed).
listUncoveredProcedures();
