// MCP tools/call with arguments that are not a JSON object (an array, a string, deep nesting): a tool error result
// with INVALID_REQUEST (or JSON-RPC -32602), never -32603 "Internal error".
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeVideoSource } from '../support/fake-video-source.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';

let s: TestServer;
let key: string;
beforeAll(async () => {
  s = await startTestServer({}, { youtube: fakeVideoSource() });
  ({ key } = await s.newKey({ credits: 10 }));
});
afterAll(async () => {
  await s?.close();
});

async function toolsCall(raw: string) {
  const res = await fetch(`${s.url}/mcp`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${key}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    },
    body: raw,
  });
  return { status: res.status, json: (await res.json()) as any };
}

const call = (name: string, args: string) =>
  `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"${name}","arguments":${args}}}`;

describe('MCP tool arguments that are not an object', () => {
  const cases: [string, string][] = [
    ['an array', '[1,2]'],
    ['an empty array', '[]'],
    ['a string', '"dQw4w9WgXcQ"'],
    ['a number', '42'],
    ['deeply nested arrays', `${'['.repeat(20_000)}${']'.repeat(20_000)}`],
    ['a deeply nested object', `{"videoId":${'{"a":'.repeat(5_000)}1${'}'.repeat(5_000)}}`],
  ];
  for (const [what, args] of cases) {
    it(`${what}: INVALID_REQUEST or -32602, not an internal error`, async () => {
      for (const tool of ['get_video_subtitles', 'get_video_frame', 'get_credits']) {
        const r = await toolsCall(call(tool, args));
        expect(r.status, `${tool}: ${JSON.stringify(r.json).slice(0, 200)}`).toBeLessThan(500);
        if (r.json.error) {
          expect(r.json.error.code, `${tool}: ${JSON.stringify(r.json).slice(0, 200)}`).toBe(-32602);
        } else if (args.startsWith('{') && !r.json.result.isError) {
          // an object with extra keys: a tool without those inputs ignores them
        } else {
          expect(r.json.result.isError, `${tool}: ${JSON.stringify(r.json).slice(0, 200)}`).toBe(true);
          expect(JSON.parse(r.json.result.content[0].text).error.code).toBe('INVALID_REQUEST');
        }
      }
    });
  }

  it('null and missing arguments still reach the tool (get_credits needs none)', async () => {
    for (const raw of [
      call('get_credits', 'null'),
      '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_credits"}}',
    ]) {
      const r = await toolsCall(raw);
      expect(r.json.result?.isError, JSON.stringify(r.json).slice(0, 200)).toBeFalsy();
    }
  });
});
