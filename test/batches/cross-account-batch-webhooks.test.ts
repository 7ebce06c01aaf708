// Review attacks on the batch and webhook ports across accounts: a second account reading, cancelling or resending
// the first one's batch and its delivery over every surface, and job callbacks registered against a job that is not
// the caller's.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobWebhookPorts } from '../../src/domain/batches/batch-sources.ts';
import { armEndedJobWebhooks, registerJobWebhook } from '../../src/domain/webhooks/job-webhooks.ts';
import { startBatchHarness, type BatchHarness } from '../batches/batch-harness.ts';
import { mcpClient, rest } from '../support/clients.ts';
import { sharedAvailable } from '../support/fixture-files.ts';
import { ID, pollUntil } from '../transcripts/recorded-youtube.ts';
import { newEmail, sessionClient } from '../web/session-client.ts';

describe.skipIf(!sharedAvailable)('batches and webhooks across accounts', { timeout: 120_000 }, () => {
  let h: BatchHarness;
  let receiver: Server;
  let hookUrl: string;
  const received: { path: string; body: string }[] = [];
  beforeAll(async () => {
    h = await startBatchHarness();
    receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        received.push({ path: req.url ?? '', body });
        res.end('ok');
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  }, 60_000);
  afterAll(async () => {
    await h?.close();
    await new Promise((r) => receiver?.close(r));
  });

  it("B reaches nothing of A's finished batch or its delivery: REST, MCP, tRPC and the website", async () => {
    const a = await h.s.newKey({ credits: 10 });
    const created = await rest(h.s.url, 'POST', '/batches', {
      key: a.key,
      body: { videos: [ID.captions9], callbackUrl: `${hookUrl}/a` },
    });
    expect(created.status).toBe(202);
    const id = created.json.id as string;
    await pollUntil(async () => received.some((r) => r.path === '/a'), "A's batch webhook arrives", 60_000);
    const [delivery] = await h.s.deps.sql<{ id: string }[]>`select id from webhook_deliveries where job_id = ${id}`;

    const b = await h.s.newKey({ credits: 10 });
    for (const [method, path] of [
      ['GET', `/batches/${id}`],
      ['POST', `/batches/${id}/cancel`],
    ] as const) {
      const r = await rest(h.s.url, method, path, { key: b.key });
      expect([r.status, r.json.error.code], path).toEqual([404, 'JOB_NOT_FOUND']);
    }
    const mcp = await mcpClient(h.s.url, b.key);
    for (const name of ['get_batch', 'cancel_batch', 'get_job']) {
      const r: any = await mcp.callTool({ name, arguments: { id } });
      expect(r.isError, name).toBe(true);
      expect(JSON.stringify(r)).not.toContain(hookUrl);
    }
    await mcp.close();

    const web = sessionClient(h.s.url);
    expect((await web.signUp(newEmail())).status).toBe(200);
    const resend = await web.mutate('webhooks.resend', { id: delivery!.id });
    expect([resend.status, resend.code]).toEqual([404, 'NOT_FOUND']);
    const settings = await web.query('webhooks.settings', {});
    expect(JSON.stringify(settings.json)).not.toContain(id);
    const batchViaSession = await web.query('batches.get', { id });
    expect(batchViaSession.status).not.toBe(200);

    const rows = await h.s.deps.sql`select 1 from webhook_deliveries where job_id = ${id}`;
    expect(rows).toHaveLength(1);
    expect(received.filter((r) => r.path === '/a')).toHaveLength(1);
    const own = await rest(h.s.url, 'GET', `/batches/${id}`, { key: a.key });
    expect(own.json.status).toBe('succeeded');
  });

  it("a callback B registers on A's ended job never fires with A's result; A's own does", async () => {
    const deps = h.s.deps;
    const a = await h.s.newKey({ credits: 5 });
    const b = await h.s.newKey({ credits: 5 });
    const job = await deps.jobs.create({
      accountId: a.accountId,
      kind: 'translation',
      input: { videoId: ID.captions9, sourceLang: 'en', targetLang: 'fr', resolvedSourceLang: 'en' },
      requestId: `req_cross_${a.accountId}`,
      jobKey: `tr:${ID.captions9}:en:fr:cross:${a.accountId}`,
    });
    await deps.sql`update tasks set status = 'failed', error = ${deps.sql.json({ code: 'LLM_FAILED', message: 'x' })}
      where id = ${job.id}`;
    const sent: string[] = [];
    const ports = { ...jobWebhookPorts(deps), enqueue: async (d: string) => void sent.push(d) };
    await registerJobWebhook(ports, { accountId: b.accountId, keyId: 'k', rateLimit: null }, job.id, `${hookUrl}/b`);
    await armEndedJobWebhooks(ports, job.jobKey ?? undefined);
    const bJob = await rest(h.s.url, 'GET', `/jobs/${job.id}`, { key: b.key });
    expect([bJob.status, bJob.json.error.code]).toEqual([404, 'JOB_NOT_FOUND']);
    await registerJobWebhook(ports, { accountId: a.accountId, keyId: 'k', rateLimit: null }, job.id, `${hookUrl}/a2`);
    const rows = await deps.sql<{ id: string; account_id: string; status: string; body: string }[]>`
      select id, account_id, status, body from webhook_deliveries where job_id = ${job.id}`;
    const of = (acc: string) => rows.find((r) => r.account_id === acc)!;
    expect([of(b.accountId).status, of(b.accountId).body]).toEqual(['waiting', '']);
    expect(of(a.accountId).status).toBe('pending');
    expect(sent).toEqual([of(a.accountId).id]);
  });
});
