import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mcpClient, mcpError, rest, trpcClient } from '../support/clients.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';

let s: TestServer;
let a: { key: string; accountId: string };
let b: { key: string; accountId: string };

// A: 45 entries. 14 grants are set one microsecond apart within one millisecond (a cursor that lost its microseconds
// would skip or repeat them); 30 charges come three to a millisecond, so paging must order ties by id.
beforeAll(async () => {
  s = await startTestServer();
  a = await s.newKey({ credits: 100 });
  b = await s.newKey({ credits: 5 });
  for (let i = 0; i < 14; i++) await s.deps.ledger.grant(a.accountId, 1, 'grant');
  await s.deps.sql`
    update credit_ledger set created_at = '2026-06-01T00:00:00.000001Z'::timestamptz + (id % 14) * interval '1 microsecond'
    where account_id = ${a.accountId} and kind = 'grant' and operation = 'grant'`;
  const base = Date.UTC(2026, 0, 1);
  for (let i = 0; i < 30; i++) {
    const now = new Date(base + Math.floor(i / 3) * 1000);
    const charged = await s.deps.ledger.charge(
      { accountId: a.accountId, amount: 1, operation: 'subtitles', videoId: `vidA${i % 2}`, requestId: `req_a${i}` },
      0,
      now,
    );
    expect(charged).not.toBeNull();
  }
  await s.deps.ledger.charge(
    { accountId: b.accountId, amount: 2, operation: 'frames', videoId: 'vidB', requestId: 'req_b' },
    0,
    new Date(),
  );
});
afterAll(() => s?.close());

const forged = (v: unknown) => Buffer.from(JSON.stringify(v), 'utf8').toString('base64url');

async function pageAll(key: string, limit = 20) {
  const ids: number[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const r = await rest(s.url, 'GET', '/credits/history', {
      key,
      query: { limit: String(limit), ...(cursor ? { cursor } : {}) },
    });
    expect(r.status).toBe(200);
    ids.push(...r.json.entries.map((e: { id: number }) => e.id));
    cursor = r.json.nextCursor ?? undefined;
    pages++;
  } while (cursor);
  return { ids, pages };
}

describe('credit history over REST', () => {
  it('pages through 45 entries 20 at a time, newest first, with no duplicate or gap', async () => {
    const { ids, pages } = await pageAll(a.key);
    expect(pages).toBe(3);
    expect(ids).toHaveLength(45);
    expect(new Set(ids).size).toBe(45);
    const [all] = await s.deps.sql<{ ids: string[] }[]>`
      select array_agg(id order by created_at desc, id desc) as ids from credit_ledger where account_id = ${a.accountId}`;
    expect(ids).toEqual(all!.ids.map(Number));
    // 7 at a time, so pages end inside the millisecond of the grants.
    const bySeven = await pageAll(a.key, 7);
    expect(bySeven.pages).toBe(7);
    expect(bySeven.ids).toEqual(ids);
  });

  it('answers the entry shape, signed credits and the request id', async () => {
    const r = await rest(s.url, 'GET', '/credits/history', { key: a.key, query: { requestId: 'req_a7' } });
    expect(r.status).toBe(200);
    expect(r.json).toEqual({
      entries: [
        {
          id: expect.any(Number),
          at: expect.stringMatching(/^2026-01-01T00:00:02\.000Z$/),
          kind: 'charge',
          operation: 'subtitles',
          videoId: 'vidA1',
          requestId: 'req_a7',
          credits: -1,
        },
      ],
      nextCursor: null,
    });
    const byVideo = await rest(s.url, 'GET', '/credits/history', {
      key: a.key,
      query: { videoId: 'vidA0', limit: '100' },
    });
    expect(byVideo.json.entries).toHaveLength(15);
    expect(byVideo.json.entries.every((e: { videoId: string }) => e.videoId === 'vidA0')).toBe(true);
  });

  it('never shows another account: not by requestId, videoId or A’s cursor', async () => {
    const own = await rest(s.url, 'GET', '/credits/history', { key: b.key });
    expect(own.json.entries.map((e: { kind: string; credits: number }) => [e.kind, e.credits])).toEqual([
      ['charge', -2],
      ['grant', 5],
    ]);
    for (const query of [{ requestId: 'req_a7' }, { videoId: 'vidA0' }] as Record<string, string>[]) {
      const r = await rest(s.url, 'GET', '/credits/history', { key: b.key, query });
      expect(r.status).toBe(200);
      expect(r.json).toEqual({ entries: [], nextCursor: null });
    }
    const first = await rest(s.url, 'GET', '/credits/history', { key: a.key, query: { limit: '1' } });
    const aCursor = first.json.nextCursor as string;
    const r = await rest(s.url, 'GET', '/credits/history', { key: b.key, query: { cursor: aCursor } });
    expect(r.status).toBe(200);
    // A's cursor is only a position: B sees its own entries older than it, never A's.
    for (const e of r.json.entries) expect(e.requestId === null || e.requestId === 'req_b').toBe(true);
    const aIds = new Set((await pageAll(a.key)).ids);
    expect(r.json.entries.some((e: { id: number }) => aIds.has(e.id))).toBe(false);
  });

  it('a forged cursor is 400 INVALID_REQUEST, never a 500', async () => {
    for (const cursor of [
      'not-a-cursor',
      forged({ at: '2026-01-01', id: 1 }),
      forged(['2026-02-30T00:00:00.000000Z', 1]),
      forged(['2026-01-01T25:00:00.000000Z', 1]),
      forged(['0000-01-01T00:00:00.000000Z', 1]),
      forged(['2026-01-01T00:00:00.000000Z', -1]),
      forged(['2026-01-01T00:00:00.000000Z', 1e30]),
      forged(["2026-01-01T00:00:00.000000Z'; drop table credit_ledger; --", 1]),
    ]) {
      const r = await rest(s.url, 'GET', '/credits/history', { key: a.key, query: { cursor } });
      expect(r.status, cursor).toBe(400);
      expect(r.json).toEqual({ error: { code: 'INVALID_REQUEST', message: expect.any(String) } });
    }
    // A well-formed position nobody was given is still only a position in the caller's own ledger.
    const r = await rest(s.url, 'GET', '/credits/history', {
      key: b.key,
      query: { cursor: forged(['2999-01-01T00:00:00.000000Z', 9_000_000_000]) },
    });
    expect(r.status).toBe(200);
    expect(r.json.entries).toHaveLength(2);
  });

  it('limit is 1..100', async () => {
    for (const limit of ['0', '101', '-1', '2.5']) {
      const r = await rest(s.url, 'GET', '/credits/history', { key: a.key, query: { limit } });
      expect(r.status, limit).toBe(400);
      expect(r.json.error.code).toBe('INVALID_REQUEST');
    }
    const max = await rest(s.url, 'GET', '/credits/history', { key: a.key, query: { limit: '100' } });
    expect(max.json.entries).toHaveLength(45);
    expect(max.json.nextCursor).toBeNull();
  });

  it('needs a key', async () => {
    const r = await rest(s.url, 'GET', '/credits/history');
    expect(r.status).toBe(401);
  });
});

describe('credit history over tRPC and MCP', () => {
  it('tRPC pages the same way and keeps accounts apart', async () => {
    const client = trpcClient(s.url, a.key);
    const first = await client.credits.history.query({ limit: 20 });
    const second = await client.credits.history.query({ cursor: first.nextCursor! });
    const third = await client.credits.history.query({ cursor: second.nextCursor! });
    const ids = [...first.entries, ...second.entries, ...third.entries].map((e) => e.id);
    expect(new Set(ids).size).toBe(45);
    expect(third.nextCursor).toBeNull();
    const asB = trpcClient(s.url, b.key);
    expect(await asB.credits.history.query({ requestId: 'req_a7' })).toEqual({ entries: [], nextCursor: null });
    const fromA = await asB.credits.history.query({ cursor: first.nextCursor! });
    expect(fromA.entries.every((e) => !ids.includes(e.id))).toBe(true);
    await expect(client.credits.history.query({ cursor: forged(['x', 1]) })).rejects.toMatchObject({
      data: { code: 'INVALID_REQUEST' },
    });
    await expect(client.credits.history.query({ limit: 101 })).rejects.toMatchObject({
      data: { code: 'INVALID_REQUEST' },
    });
  });

  it('MCP lists get_credit_history as read-only and free, and keeps accounts apart', async () => {
    const client = await mcpClient(s.url, b.key);
    const { tools } = await client.listTools();
    const tool = tools.find((t) => t.name === 'get_credit_history')!;
    expect(tool.annotations).toMatchObject({ readOnlyHint: true, idempotentHint: true });
    const own: any = await client.callTool({ name: 'get_credit_history', arguments: {} });
    expect(own.isError).toBeFalsy();
    expect(own.structuredContent.entries).toHaveLength(2);
    const theirs: any = await client.callTool({ name: 'get_credit_history', arguments: { requestId: 'req_a7' } });
    expect(theirs.structuredContent).toEqual({ entries: [], nextCursor: null });
    const bad: any = await client.callTool({ name: 'get_credit_history', arguments: { cursor: 'garbage' } });
    expect(mcpError(bad)?.code).toBe('INVALID_REQUEST');
    const zero: any = await client.callTool({ name: 'get_credit_history', arguments: { limit: 0 } });
    expect(mcpError(zero)?.code).toBe('INVALID_REQUEST');
    // Free: B's balance is what it was.
    expect((await trpcClient(s.url, b.key).credits.get.query({})).balance).toBe(3);
    await client.close();
  });
});
