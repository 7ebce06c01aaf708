// Review (MCP resources/list): the cursor carries seen_at to the microsecond, but the query handed it to postgres.js
// as a timestamptz parameter, which goes through a JavaScript Date: the position was cut to the millisecond, and every
// row sharing the page's last millisecond (all the entries one statement noted share now()) was skipped. A forged
// cursor whose timestamp has the right shape but is no date (month 99) was an internal error (-32603).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RESOURCES_PAGE } from '../../src/bridges/mcp/resources.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';

const REVISION = '2026-07-28';
let s: TestServer;
let key: string;
let accountId: string;

beforeAll(async () => {
  s = await startTestServer();
  ({ key, accountId } = await s.newKey({ credits: 1 }));
});
afterAll(async () => s?.close());

let n = 1;
async function list(cursor?: unknown) {
  const res = await fetch(`${s.url}/mcp`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${key}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': REVISION,
      'mcp-method': 'resources/list',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: n++,
      method: 'resources/list',
      params: {
        ...(cursor === undefined ? {} : { cursor }),
        _meta: {
          'io.modelcontextprotocol/protocolVersion': REVISION,
          'io.modelcontextprotocol/clientInfo': { name: 'review', version: '1' },
          'io.modelcontextprotocol/clientCapabilities': {},
        },
      },
    }),
  });
  return { status: res.status, json: await res.json() };
}
const forged = (seenAt: string) => Buffer.from(JSON.stringify([seenAt, 'subtext://articles/x'])).toString('base64url');

describe('resources/list cursor', () => {
  it('pages every entry noted in one statement (one seen_at), none skipped', async () => {
    const total = RESOURCES_PAGE + 5;
    const uris = Array.from({ length: total }, (_, i) => `subtext://articles/art_review${String(i).padStart(3, '0')}`);
    await s.deps.resourceLibrary.note(
      accountId,
      uris.map((uri) => ({ uri, name: uri, title: uri, mimeType: 'text/markdown' })),
    );
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const r = await list(cursor);
      expect(r.json.error).toBeUndefined();
      seen.push(
        ...r.json.result.resources.map((x: { uri: string }) => x.uri).filter((u: string) => u.startsWith('subtext://')),
      );
      cursor = r.json.result.nextCursor;
    } while (cursor);
    expect(seen.sort()).toEqual(uris);
  });

  it('a forged cursor whose timestamp is no date is -32602, not an internal error', async () => {
    for (const at of [
      '9999-99-99 99:99:99+99',
      '2026-02-31 10:00:00+00',
      '2026-02-29 10:00:00+00',
      '2026-01-01 25:00:00+00',
    ]) {
      const r = await list(forged(at));
      expect(r.status).toBe(200);
      expect(r.json.error?.code, `${at}: ${JSON.stringify(r.json)}`).toBe(-32602);
    }
  });
});
