// Review attacks on the batch/webhook ports and the stalled-item sweep: a second account reaching the first one's
// batch or delivery, and the sweep meeting an item that is legitimately running or a cancel in the same moment.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { batchPorts } from '../../src/domain/batches/batch-sources.ts';
import { sweepStalledItems } from '../../src/domain/batches/sweep-stalled-items.ts';
import { resendWebhook } from '../../src/domain/webhooks/deliver-webhook.ts';
import { sweepItemsPorts } from '../../src/jobs/sweep-ports.ts';
import { startBatchHarness, type BatchHarness } from '../batches/batch-harness.ts';
import { rest } from '../support/clients.ts';

describe('batch ports and the stalled-item sweep under attack', { timeout: 60_000 }, () => {
  let h: BatchHarness;
  beforeAll(async () => {
    h = await startBatchHarness();
  });
  afterAll(async () => {
    await h?.close();
  });

  const storedBatch = (accountId: string, videos: string[]) =>
    h.s.deps.batches.create({
      accountId,
      requestId: `req_review_${accountId}_${videos.length}`,
      operation: { type: 'transcript' },
      source: { videos: videos.length },
      callbackUrl: null,
      videoIds: videos,
    });

  it('account B cannot read, cancel or resend anything of account A', async () => {
    const a = await h.s.newKey({ credits: 5 });
    const b = await h.s.newKey({ credits: 5 });
    const batch = await storedBatch(a.accountId, ['ud9d5cMDP_0']);
    const get = await rest(h.s.url, 'GET', `/batches/${batch.id}`, { key: b.key });
    expect(get.status).toBe(404);
    expect(get.json.error.code).toBe('JOB_NOT_FOUND');
    const cancel = await rest(h.s.url, 'POST', `/batches/${batch.id}/cancel`, { key: b.key });
    expect(cancel.status).toBe(404);
    expect(cancel.json.error.code).toBe('JOB_NOT_FOUND');
    const [item] = await h.s.deps.sql`select status from batch_items where batch_id = ${batch.id}`;
    expect(item!.status).toBe('queued');

    const deliveryId = await h.s.deps.webhooks.create({
      accountId: a.accountId,
      jobId: batch.id,
      url: 'http://127.0.0.1:9/hook',
      event: 'job.completed',
      body: '{}',
    });
    await expect(resendWebhook(batchPorts(h.s.deps), b.accountId, deliveryId)).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    const rows = await h.s.deps.sql`select id from webhook_deliveries where job_id = ${batch.id}`;
    expect(rows).toHaveLength(1);
  });

  it('the sweep leaves a running item with a live job alone, and a cancel racing it ends the batch once', async () => {
    const a = await h.s.newKey({ credits: 5 });
    const deps = h.s.deps;
    // No worker takes item 1 once the sweep sends it again: the race under test is the sweep's against the cancel,
    // and a worker claiming the item in between would run it (a running item is not cancelled) and charge.
    await deps.queue.boss.offWork('batch-item');
    const batch = await storedBatch(a.accountId, ['ud9d5cMDP_0', 'ud9d5cMDP_0']);
    // Item 0 is held by a live run: claimed, its job active-looking (queued far ahead under its key).
    expect(await deps.batches.claimItem(batch.id, 0)).not.toBeNull();
    await deps.queue.boss.send(
      'batch-item',
      { batchId: batch.id, position: 0 },
      {
        singletonKey: `${batch.id}:0`,
        startAfter: 3600,
      },
    );
    await deps.sql`update batch_items set updated_at = now() - interval '1 minute' where batch_id = ${batch.id}`;
    // Sweep and cancel at once: item 1 is queued with no job.
    const [, cancelled] = await Promise.all([
      sweepStalledItems(sweepItemsPorts(deps)),
      rest(h.s.url, 'POST', `/batches/${batch.id}/cancel`, { key: a.key }),
    ]);
    expect(cancelled.status).toBe(200);
    await sweepStalledItems(sweepItemsPorts(deps));
    const items = await deps.sql<{ position: number; status: string; credits_charged: number | null }[]>`
      select position, status, credits_charged from batch_items where batch_id = ${batch.id} order by position`;
    expect(items[0]!.status).toBe('running');
    expect(['cancelled', 'queued']).toContain(items[1]!.status);
    const [b] = await deps.sql`select status from batches where id = ${batch.id}`;
    expect(b!.status).toBe('running');
    const [bal] = await deps.sql<{ n: number }[]>`
      select coalesce(sum(delta), 0)::int as n from credit_ledger where account_id = ${a.accountId}`;
    expect(bal!.n).toBe(5);
  });
});
