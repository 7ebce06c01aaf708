// A job whose worker died on every attempt (pg-boss fails it when the last attempt's heartbeat runs out) has no
// outcome of ours: nothing about the work failed, the service lost its worker. Its waiters and its task are told to
// retry (503 SERVICE_BUSY), not that the extraction or the model failed (502). Found by the long invariant run
// (workers killed every few seconds): frames and summaries answered 502. Likewise a task whose job met the database
// away on its last attempt (a translation answered 502 LLM_FAILED "The work failed").
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FRAMES_QUEUE } from '../../src/jobs/queues.ts';
import { reconcileJob } from '../../src/domain/jobs/llm-jobs.ts';
import { callerJobHandler } from '../../src/jobs/caller-job-handler.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';

describe('a job whose worker died on every attempt', { timeout: 60_000 }, () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ ANTHROPIC_API_KEY: 'test', ANTHROPIC_BASE_URL: 'http://127.0.0.1:9' });
  });
  afterAll(() => s?.close());

  it('answers its waiters SERVICE_BUSY', async () => {
    const key = `frame:died:${Date.now()}`;
    // A job no worker takes yet (due in an hour), which the request joins and waits for.
    const id = await s.deps.queue.boss.send(FRAMES_QUEUE, { kind: 'noop' }, { singletonKey: key, startAfter: 3600 });
    // Waiting on the job's id (as a request that joined it does): joining by key could race the failure below and
    // enqueue a fresh job instead.
    const waiting = s.deps.queue.wait(FRAMES_QUEUE, id!, 30_000);
    // What pg-boss does when the last attempt's heartbeat runs out.
    for (;;) {
      const rows = await s.deps.sql`update pgboss.job set state = 'failed', completed_on = now()
        where id = ${id!} and state = 'created' returning id`;
      if (rows.length) break;
    }
    expect(await waiting).toMatchObject({ ok: false, error: { code: 'SERVICE_BUSY' } });
  });

  it('settles its task SERVICE_BUSY', async () => {
    const { accountId } = await s.newKey({ credits: 5 });
    const task = await s.deps.jobs.create({
      accountId,
      kind: 'summary',
      input: { videoId: 'ud9d5cMDP_0', lang: 'en' },
      requestId: `req_died_${accountId}`,
      jobKey: `sum:died:${accountId}`,
    });
    // No live job under its key: its job ended without a result.
    const settled = await reconcileJob(s.deps, task);
    expect(settled).toMatchObject({ status: 'failed', error: { code: 'SERVICE_BUSY' } });
  });

  it('fails its tasks SERVICE_BUSY when the database was away on its last attempt', async () => {
    const { accountId } = await s.newKey({ credits: 5 });
    const key = `tr:blip:${accountId}`;
    const task = await s.deps.jobs.create({
      accountId,
      kind: 'translation',
      input: { videoId: 'ud9d5cMDP_0', sourceLang: 'en', targetLang: 'de', resolvedSourceLang: 'en' },
      requestId: `req_blip_${accountId}`,
      jobKey: key,
    });
    const terminated = Object.assign(new Error('terminating connection due to administrator command'), {
      code: '57P01',
    });
    const handler = callerJobHandler(
      s.deps,
      (data) => data as { key: string },
      () => Promise.reject(terminated),
      { code: 'LLM_FAILED', message: 'The work failed; nothing was charged' },
    );
    await expect(handler({ key }, { retryCount: 2, retryLimit: 2 })).rejects.toBe(terminated);
    expect(await s.deps.jobs.read(task.id, accountId)).toMatchObject({
      status: 'failed',
      error: { code: 'SERVICE_BUSY' },
    });
  });
});
