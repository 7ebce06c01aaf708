// Review attack on task callbacks: arming walks every waiting delivery of an ended task and reads the job as the
// delivery's account. A delivery whose account cannot read the task (an account other than the task's) made that read
// throw, and the throw stopped the whole pass: every other account's callback stayed waiting behind it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobWebhookPorts } from '../../src/domain/batches/batch-sources.ts';
import { armEndedJobWebhooks } from '../../src/domain/webhooks/job-webhooks.ts';
import { startBatchHarness, type BatchHarness } from '../batches/batch-harness.ts';

describe('task callbacks: one unreadable delivery', { timeout: 60_000 }, () => {
  let h: BatchHarness;
  beforeAll(async () => {
    h = await startBatchHarness();
  });
  afterAll(async () => {
    await h?.close();
  });

  it('is skipped, never armed for the wrong account, and does not hold up the others', async () => {
    const deps = h.s.deps;
    const a = await h.s.newKey({ credits: 5 });
    const b = await h.s.newKey({ credits: 5 });
    const task = await deps.jobs.create({
      accountId: a.accountId,
      kind: 'translation',
      input: { videoId: 'ud9d5cMDP_0', sourceLang: 'de', targetLang: 'fr', resolvedSourceLang: 'de' },
      requestId: `req_poison_${a.accountId}`,
      jobKey: `tr:ud9d5cMDP_0:de:fr:poison:${a.accountId}`,
    });
    await deps.sql`update tasks set status = 'failed', error = ${deps.sql.json({ code: 'LLM_FAILED', message: 'x' })}
      where id = ${task.id}`;
    // B's delivery first (created first), then A's own.
    await deps.webhooks.register({ accountId: b.accountId, jobId: task.id, url: 'http://127.0.0.1:9/b' });
    await deps.webhooks.register({ accountId: a.accountId, jobId: task.id, url: 'http://127.0.0.1:9/a' });

    await armEndedJobWebhooks({ ...jobWebhookPorts(deps), enqueue: async () => {} });
    const rows = await deps.sql<{ account_id: string; status: string; body: string | null }[]>`
      select account_id, status, body from webhook_deliveries where job_id = ${task.id}`;
    const of = (acc: string) => rows.find((r) => r.account_id === acc)!;
    expect(of(a.accountId).status).toBe('pending');
    expect(of(b.accountId).status).toBe('waiting');
    expect(of(b.accountId).body ?? '').toBe('');
  });
});
