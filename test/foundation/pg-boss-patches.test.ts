// What patches/pg-boss+12.35.0.patch fixes in pg-boss 12.35.0, found by the long invariant run (the process died on an
// unhandled 'error' event of a pg Client, 57P01, during a database blip).
//
// pg-boss's LISTEN connection takes every listener off its client before ending it (on a lost connection, a failed
// LISTEN, or stop). Until the end completes the client is still connected: an error arriving meanwhile (the FATAL a
// terminated backend sends, a reset) was emitted with no listener, which ends the process. The patch leaves a no-op
// listener on it.
import net from 'node:net';
import { PgBoss } from 'pg-boss';
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
 * A relay that finds the connection that sent LISTEN and, once that connection sends Terminate (its client ending,
 * listeners already taken off), holds it and answers it as a terminated backend would before it closes.
 */
async function listenRelay(target: URL) {
  let answered = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('error', () => {});
    }
    let listening = false;
    client.on('data', (chunk: Buffer) => {
      if (chunk.includes('LISTEN "')) listening = true;
      // Terminate ('X'): the client is ending. The backend's FATAL reaches it first.
      if (listening && chunk[0] === 0x58) {
        answered++;
        client.write(terminated());
        return;
      }
      upstream.write(chunk);
    });
    upstream.pipe(client);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.address() as net.AddressInfo).port,
    answered: () => answered,
    close() {
      server.close();
      for (const s of sockets) s.destroy();
    },
  };
}

describe('pg-boss: an error on the LISTEN connection while it ends', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let relay: Awaited<ReturnType<typeof listenRelay>>;
  beforeAll(async () => {
    db = await createTestDatabase();
    relay = await listenRelay(new URL(db.url));
  });
  afterAll(async () => {
    relay?.close();
    await db?.drop();
  });

  it('does not end the process', { timeout: 30_000 }, async () => {
    const url = new URL(db.url);
    url.host = `127.0.0.1:${relay.port}`;
    const boss = new PgBoss({ connectionString: url.toString(), schema: 'pgboss', useListenNotify: true });
    boss.on('error', () => {});
    const uncaught: unknown[] = [];
    const onUncaught = (e: unknown) => uncaught.push(e);
    process.on('uncaughtException', onUncaught);
    try {
      await boss.start();
      const stopped = new Promise<void>((r) => boss.once('stopped', () => r()));
      await boss.stop({ graceful: false, timeout: 5_000 });
      await stopped;
      // The listener's end waited for its socket to end, which the FATAL written before it preceded.
      expect(relay.answered()).toBe(1);
      expect(uncaught).toEqual([]);
    } finally {
      process.off('uncaughtException', onUncaught);
    }
  });
});
