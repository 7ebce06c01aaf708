// Review (MCP resources): one account reading the same transcript resource many times at once, before it is stored,
// pays for it once; a second account reading it then reads it free (stored).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TRANSCRIPT_PRICE } from '../../src/domain/pricing/prices.ts';
import { rest } from '../support/clients.ts';
import { fakeVideoSource, freshVideoId } from '../support/fake-video-source.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';
import { clientAt } from '../mcp/mcp-clients.ts';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({}, { youtube: fakeVideoSource() });
});
afterAll(async () => s?.close());

const balance = async (key: string) => (await rest(s.url, 'GET', '/credits', { key })).json.balance as number;

describe('concurrent resources/read of an unstored transcript', () => {
  it('charges once', async () => {
    const a = await s.newKey({ credits: 20 });
    const b = await s.newKey({ credits: 20 });
    const uri = `subtext://videos/${freshVideoId()}/transcript`;
    const clients = await Promise.all(Array.from({ length: 6 }, () => clientAt(s.url, a.key, '2026-07-28')));
    const reads = await Promise.allSettled(clients.map((c) => c.readResource({ uri })));
    expect(reads.filter((r) => r.status === 'fulfilled').length).toBeGreaterThan(0);
    expect(await balance(a.key)).toBe(20 - TRANSCRIPT_PRICE);
    const other = await clientAt(s.url, b.key, '2026-07-28');
    await other.readResource({ uri });
    expect(await balance(b.key)).toBe(20);
    await Promise.all([...clients, other].map((c) => c.close()));
  });
});
