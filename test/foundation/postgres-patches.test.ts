// What patches/postgres+3.4.9.patch fixes in postgres.js 3.4.9, each found by the long invariant run.
//
// 1. It sends the array-types query (`fetch_types`) first on every new connection and drops its promise:
// a connection cut during it became an unhandled rejection that ended the process (a database blip during the long
// invariant run). patches/postgres+3.4.9.patch catches it; the query that waited for the connection still gets the
// error, and the pool goes on. vitest fails this file on any unhandled rejection.
// 2. A query that fails after some of its rows arrived (an error mid-result; a backend terminated mid-stream, as in a
// blip) left the connection's row index where it stopped, so the next query on it got its rows after as many holes:
// `const [row] = await sql...` read undefined, and `new Map(rows.map(...))` threw (a 500 on keyed requests).
// 3. A backend terminated while the connection starts (its array-types query) sends 57P01 and closes; the driver
// reconnected but kept that error, and failed the first query on the new connection with it (porsager/postgres#1223).
// 4. A backend terminated during a query (a blip) left that query set on the closed connection, so `sql.end()` waited
// for it forever (porsager/postgres#1097, #1130): a worker's start (its migration client's end) hung for good.
import net from 'node:net';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../support/databases.ts';

/** The ErrorResponse PostgreSQL sends a backend it terminates (pg_terminate_backend). */
function terminated(): Buffer {
  const fields = Buffer.from('SFATAL\0C57P01\0Mterminating connection due to administrator command\0\0');
  const head = Buffer.alloc(5);
  head.write('E', 0);
  head.writeInt32BE(fields.length + 4, 1);
  return Buffer.concat([head, fields]);
}

/**
 * A relay to the database that cuts the first connection whose client sends the array-types query and resets the
 * reconnection that follows (the database still away), then passes everything.
 */
async function cutOnTypesQuery(target: URL) {
  let cuts = 0;
  let resets = 0;
  const server = net.createServer((client) => {
    if (cuts === 1 && resets === 0) {
      resets++;
      return client.resetAndDestroy();
    }
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    const both = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('error', both);
    upstream.on('error', both);
    client.on('data', (chunk: Buffer) => {
      if (cuts === 0 && chunk.includes('pg_catalog.pg_type')) {
        cuts++;
        return both();
      }
      upstream.write(chunk);
    });
    upstream.pipe(client);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { port: (server.address() as net.AddressInfo).port, cuts: () => cuts, close: () => server.close() };
}

describe('postgres.js: a connection cut while it fetches array types', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let relay: Awaited<ReturnType<typeof cutOnTypesQuery>>;
  beforeAll(async () => {
    db = await createTestDatabase();
    relay = await cutOnTypesQuery(new URL(db.url));
  });
  afterAll(async () => {
    relay?.close();
    await db?.drop();
  });

  it('fails the waiting query (or it runs on the reconnection) and leaves no unhandled rejection', async () => {
    const url = new URL(db.url);
    url.host = `127.0.0.1:${relay.port}`;
    const sql = postgres(url.toString(), { max: 1, onnotice: () => {} });
    const unhandled: unknown[] = [];
    const onUnhandled = (e: unknown) => unhandled.push(e);
    process.on('unhandledRejection', onUnhandled);
    try {
      const first = await sql`select 1 as one`.then(
        (rows) => rows[0]?.one,
        (err: { code?: string }) => err.code,
      );
      expect(relay.cuts()).toBe(1);
      expect([1, 'CONNECTION_CLOSED', 'ECONNRESET']).toContain(first);
      expect(unhandled).toEqual([]);
      // The pool goes on: the next query runs on a new connection, array types fetched.
      expect((await sql`select ${[1, 2]}::int[] as xs`)[0]!.xs).toEqual([1, 2]);
      await new Promise((r) => setImmediate(r));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
      await sql.end({ timeout: 1 });
    }
  });
});

describe('postgres.js: a query that fails after some of its rows arrived', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(() => db?.drop());

  it('leaves the next query on that connection its own rows, from the first', async () => {
    const sql = postgres(db.url, { max: 1, onnotice: () => {} });
    try {
      // Four rows are sent, then the fifth divides by zero: the error ends the query mid-result.
      const failed = await sql`select case when i < 5 then i else 1 / (i - i) end as x from generate_series(1, 10) i`
        .then(() => null)
        .catch((err: { code?: string }) => err.code);
      expect(failed).toBe('22012');
      const rows = await sql`select 1 as one`;
      expect(rows.length).toBe(1);
      expect(rows[0]).toEqual({ one: 1 });
    } finally {
      await sql.end({ timeout: 1 });
    }
  });
});

describe('postgres.js: a backend terminated while the connection fetches array types', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let server: net.Server;
  let port = 0;
  let terminations = 0;
  beforeAll(async () => {
    db = await createTestDatabase();
    const target = new URL(db.url);
    // The first connection's array-types query is answered as a terminated backend answers, then closed.
    server = net.createServer((client) => {
      const upstream = net.connect(Number(target.port || 5432), target.hostname);
      client.on('error', () => upstream.destroy());
      upstream.on('error', () => client.destroy());
      client.on('data', (chunk: Buffer) => {
        if (terminations === 0 && chunk.includes('pg_catalog.pg_type')) {
          terminations++;
          upstream.destroy();
          client.end(terminated());
          return;
        }
        upstream.write(chunk);
      });
      upstream.pipe(client);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as net.AddressInfo).port;
  });
  afterAll(async () => {
    server?.close();
    await db?.drop();
  });

  it('runs the first query on the new connection instead of failing it with the old one’s error', async () => {
    const url = new URL(db.url);
    url.host = `127.0.0.1:${port}`;
    const sql = postgres(url.toString(), { max: 1, onnotice: () => {} });
    const unhandled: unknown[] = [];
    const onUnhandled = (e: unknown) => unhandled.push(e);
    process.on('unhandledRejection', onUnhandled);
    try {
      const first = await sql`select 1 as one`.then(
        (rows) => rows[0]?.one,
        (err: { code?: string }) => err.code,
      );
      expect(terminations).toBe(1);
      expect(first).toBe(1);
      await new Promise((r) => setImmediate(r));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
      await sql.end({ timeout: 1 });
    }
  });
});

describe('postgres.js: a backend terminated during a query', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let admin: postgres.Sql;
  beforeAll(async () => {
    db = await createTestDatabase();
    admin = postgres(db.url, { max: 1, onnotice: () => {} });
  });
  afterAll(async () => {
    await admin?.end({ timeout: 1 });
    await db?.drop();
  });

  it('fails the query, and end() still ends the client', { timeout: 20_000 }, async () => {
    const sql = postgres(db.url, { max: 1, onnotice: () => {} });
    const [{ pid }] = (await sql`select pg_backend_pid() as pid`) as unknown as [{ pid: number }];
    const sleeping = sql`select pg_sleep(60)`.then(
      () => null,
      (err: { code?: string }) => err.code,
    );
    // Terminated once it runs (the server reports it active), as a blip terminates every backend.
    for (;;) {
      const [row] = await admin`select pg_terminate_backend(pid) as done from pg_stat_activity
        where pid = ${pid} and state = 'active' and query like '%pg_sleep(60)%'`;
      if (row?.done) break;
    }
    expect(['57P01', 'CONNECTION_CLOSED', 'ECONNRESET']).toContain(await sleeping);
    // Without the patch this never resolves (the test then fails on its timeout).
    await sql.end();
  });
});
