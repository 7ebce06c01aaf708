import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLoopbackS3, type LoopbackS3 } from '../support/s3-server.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';

describe('/healthz and /readyz', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(async () => {
    await s?.close();
  });

  it('ready: database, migrations, queue and blob store each ok', async () => {
    const res = await fetch(`${s.url}/readyz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      status: 'ready',
      checks: { database: 'ok', migrations: 'ok', queue: 'ok', blobs: 'ok' },
    });
    expect(await (await fetch(`${s.url}/healthz`)).json()).toEqual({ status: 'ok' });
  });

  it('a database missing the newest migration is not ready; healthz still answers', async () => {
    const [last] = await s.deps.sql<{ id: number; created_at: string }[]>`
      select id, created_at from drizzle.__drizzle_migrations order by created_at desc limit 1`;
    await s.deps.sql`update drizzle.__drizzle_migrations set created_at = 1 where id = ${last!.id}`;
    try {
      const res = await fetch(`${s.url}/readyz`);
      expect(res.status).toBe(503);
      const body = await res.json();
      expect(body.error.code).toBe('SERVICE_BUSY');
      expect(body.checks.migrations).toMatch(/^missing migration \d{4}_/);
      expect(body.error.message).toContain('migrations: missing migration');
      expect((await fetch(`${s.url}/healthz`)).status).toBe(200);
    } finally {
      await s.deps.sql`update drizzle.__drizzle_migrations set created_at = ${last!.created_at} where id = ${last!.id}`;
    }
    expect((await fetch(`${s.url}/readyz`)).status).toBe(200);
  });

  it('a stopped job queue is not ready (what a draining instance answers)', async () => {
    const other = await startTestServer();
    try {
      await other.deps.queue.stop();
      const res = await fetch(`${other.url}/readyz`);
      expect(res.status).toBe(503);
      expect((await res.json()).checks).toMatchObject({ database: 'ok', queue: 'stopped' });
    } finally {
      await other.close();
    }
  });
});

describe('/readyz with an S3 blob store', () => {
  let s3: LoopbackS3;
  let s: TestServer;
  beforeAll(async () => {
    s3 = await startLoopbackS3(['ready-frames']);
    s = await startTestServer({
      S3_BUCKET: 'ready-frames',
      S3_ENDPOINT: s3.endpoint,
      S3_FORCE_PATH_STYLE: 'true',
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_TIMEOUT_MS: '1000',
    });
  });
  afterAll(async () => {
    await s?.close();
  });

  it('is ready while the bucket answers, and says why not once the S3 server is gone', async () => {
    expect((await fetch(`${s.url}/readyz`)).status).toBe(200);
    await s3.close();
    const res = await fetch(`${s.url}/readyz`);
    expect(res.status).toBe(503);
    const body = await res.json();
    expect(body.checks.database).toBe('ok');
    expect(body.checks.blobs).toMatch(/^S3 check failed/);
  });
});
