// A job (translation, article, speech-to-text) whose task no run will move again: a request that joined the job
// after its last update, with its wait run out, or a job given up after its worker was killed on every attempt. GET
// /jobs/{id} settled such a task when read; nobody reading it left it queued forever, and its callback never fired
// (the long invariant run found a joined translation left `queued`). The workers' sweep settles it from what is
// stored, and the callback is sent. A task whose job is still queued or running is left alone. A batch whose ending run
// died before it queued the event gets the event from the same sweep, and so does one whose items all ended but whose
// last run died (or lost the database) before it ended the batch.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedAvailable } from '../support/fixture-files.ts';
import { browseAvailable } from '../support/youtube-browse-replay.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.ts';
import { pollUntil } from '../transcripts/recorded-youtube.ts';
import { startBatchHarness, type BatchHarness } from './batch-harness.ts';

describe.skipIf(!sharedAvailable || !browseAvailable)(
  'work no run will finish: stalled tasks, batch events never queued',
  { timeout: 60_000 },
  () => {
    let h: BatchHarness;
    let receiver: WebhookReceiver;
    beforeAll(async () => {
      h = await startBatchHarness();
      receiver = await startWebhookReceiver();
    });
    afterAll(async () => {
      await h?.close();
      await receiver?.close();
    });

    it('are settled by the sweep (failed, nothing stored) and their callback fires; one with a live job is not', async () => {
      const { accountId } = await h.s.newKey({ credits: 5 });
      const deps = h.s.deps;
      const task = (key: string) =>
        deps.jobs.create({
          accountId,
          kind: 'translation',
          input: { videoId: 'ud9d5cMDP_0', sourceLang: 'de', targetLang: 'fr', resolvedSourceLang: 'de' },
          requestId: `req_${key}`,
          jobKey: key,
        });
      const orphan = await task('tr:ud9d5cMDP_0:de:fr:orphan');
      const alive = await task('tr:ud9d5cMDP_0:de:fr:alive');
      // The live one's job waits in the queue (start_after far ahead): the sweep must leave its task alone.
      await deps.queue.boss.send('llm', { kind: 'noop' }, { singletonKey: alive.jobKey!, startAfter: 3600 });
      await deps.webhooks.register({ accountId, jobId: orphan.id, url: receiver.url });
      // Both untouched for a minute, as a task nobody read since its job ended.
      await deps.sql`update tasks set updated_at = now() - interval '1 minute' where account_id = ${accountId}`;

      await pollUntil(
        async () => (await deps.jobs.read(orphan.id, accountId))!.status === 'failed',
        'the sweep',
        20_000,
      );
      expect((await deps.jobs.read(orphan.id, accountId))!.error).toMatchObject({ code: 'SERVICE_BUSY' });
      const [hook] = await receiver.waitFor(1);
      expect(JSON.parse(hook!.body)).toMatchObject({ type: 'job.failed', data: { id: orphan.id, status: 'failed' } });
      expect((await deps.jobs.read(alive.id, accountId))!.status).toBe('queued');
    });

    it('a batch ended by a run that died before queuing its event gets its webhook from the sweep', async () => {
      // The long invariant run found one: a worker killed between ending the batch and queuing its event; the status
      // moves once, so no later run queued it.
      const { accountId } = await h.s.newKey({ credits: 5 });
      const deps = h.s.deps;
      const start = receiver.received.length;
      const batch = await deps.batches.create({
        accountId,
        requestId: `req_silent_${accountId}`,
        operation: { type: 'transcript' },
        source: { videos: 1 },
        callbackUrl: receiver.url,
        videoIds: ['ud9d5cMDP_0'],
      });
      await deps.batches.cancelQueued(batch.id, accountId);
      expect((await deps.batches.settleIfDone(batch.id))?.status).toBe('cancelled');
      await deps.sql`update batches set finished_at = now() - interval '1 minute' where id = ${batch.id}`;
      const [hook] = (await receiver.waitFor(start + 1)).slice(start);
      expect(JSON.parse(hook!.body)).toMatchObject({ type: 'job.failed', data: { id: batch.id, status: 'cancelled' } });
      const rows = await deps.sql`select status from webhook_deliveries where job_id = ${batch.id}`;
      expect(rows).toHaveLength(1);
    });

    it('a batch whose items all ended but no run ended it is ended by the sweep, and its webhook fires', async () => {
      // Found by the long invariant run (seed 1): an item's run finished the item, then died before settling its
      // batch; the queue's last retry found the item final, and its settle met a database blip: the job ended with
      // that error and the batch stayed `running` for good, with no webhook.
      const { accountId } = await h.s.newKey({ credits: 5 });
      const deps = h.s.deps;
      const start = receiver.received.length;
      const batch = await deps.batches.create({
        accountId,
        requestId: `req_unsettled_${accountId}`,
        operation: { type: 'transcript' },
        source: { videos: 1 },
        callbackUrl: receiver.url,
        videoIds: ['ud9d5cMDP_0'],
      });
      // The item's run, up to the point where it died: claimed, then finished; the batch not settled.
      await deps.sql`update batch_items set status = 'failed', updated_at = now() - interval '1 minute',
        error = ${deps.sql.json({ code: 'VIDEO_NOT_FOUND', message: 'gone' })} where batch_id = ${batch.id}`;
      await deps.sql`update batches set updated_at = now() - interval '1 minute' where id = ${batch.id}`;
      await pollUntil(
        async () => (await deps.batches.get(batch.id, accountId))?.batch.status === 'failed',
        'the sweep ends the batch',
        20_000,
      );
      const [hook] = (await receiver.waitFor(start + 1)).slice(start);
      expect(JSON.parse(hook!.body)).toMatchObject({ type: 'job.failed', data: { id: batch.id, status: 'failed' } });
    });

    it('a pending delivery whose attempt was never enqueued is sent by the sweep', async () => {
      // Found by the long run: the delivery row was stored, then a blip or a kill lost its enqueue; it stayed pending.
      const { accountId } = await h.s.newKey({ credits: 5 });
      const deps = h.s.deps;
      const start = receiver.received.length;
      const jobId = `bat_unsent_${accountId}`;
      const id = await deps.webhooks.create({
        accountId,
        jobId,
        url: receiver.url,
        event: 'job.completed',
        body: JSON.stringify({ type: 'job.completed', data: { id: jobId } }),
      });
      await deps.sql`update webhook_deliveries set next_attempt_at = now() - interval '1 minute' where id = ${id}`;
      const [hook] = (await receiver.waitFor(start + 1)).slice(start);
      expect(JSON.parse(hook!.body)).toMatchObject({ data: { id: jobId } });
      await pollUntil(async () => (await deps.webhooks.get(id))?.status === 'delivered', 'the delivery is recorded');
    });
  },
);
