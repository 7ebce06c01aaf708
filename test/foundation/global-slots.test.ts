import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type Sql } from '../../db/client.ts';
import { withGlobalSlot } from '../../src/infra/queue/global-slots.ts';
import { createTestDatabase } from '../support/databases.ts';

describe('withGlobalSlot', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let a: Sql;
  let b: Sql;
  beforeAll(async () => {
    db = await createTestDatabase();
    // Two pools stand for two service instances.
    a = connect(db.url, { max: 8 }).sql;
    b = connect(db.url, { max: 8 }).sql;
  });
  afterAll(async () => {
    await a?.end();
    await b?.end();
    await db?.drop();
  });

  it('never lets more than `capacity` holders run at once across instances', async () => {
    let running = 0;
    let peak = 0;
    let released!: () => void;
    const gate = new Promise<void>((r) => (released = r));
    const task = (sql: Sql) =>
      withGlobalSlot(
        sql,
        'test-queue',
        2,
        async () => {
          running++;
          peak = Math.max(peak, running);
          await gate;
          running--;
        },
        { pollMs: 10 },
      );
    const all = Promise.all([task(a), task(b), task(a), task(b), task(a), task(b)]);
    // Wait until two hold slots and the rest are polling.
    while (running < 2) await new Promise((r) => setImmediate(r));
    expect(running).toBe(2);
    released();
    await all;
    expect(peak).toBe(2);
  });

  it('releases the slot when the work throws', async () => {
    await expect(
      withGlobalSlot(a, 'throwing', 1, async () => {
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    await expect(withGlobalSlot(b, 'throwing', 1, async () => 'ok')).resolves.toBe('ok');
  });
});
