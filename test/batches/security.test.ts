// The shared security and money checks for the batch procedures, and the SSRF rules for callbackUrl on a service
// composed as in production (public addresses only; http allowed by the operator so the address rule is what refuses).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mcpClient, mcpError, rest, trpcClient } from '../support/clients.ts';
import { fakeVideoSource, freshVideoId } from '../support/fake-video-source.ts';
import { describeKeyedProcedureChecks } from '../support/security-checks.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';

let s: TestServer;
let httpsOnly: TestServer;
beforeAll(async () => {
  [s, httpsOnly] = await Promise.all([
    startTestServer({ WEBHOOK_ALLOW_HTTP: 'true' }, { youtube: fakeVideoSource() }),
    startTestServer({}, { youtube: fakeVideoSource() }),
  ]);
});
afterAll(async () => {
  await s?.close();
  await httpsOnly?.close();
});
const server = () => s;

describeKeyedProcedureChecks('batches.create', server, {
  input: () => ({ videos: [freshVideoId()] }),
  restStatus: 202,
  price: 2,
});
describeKeyedProcedureChecks('batches.get', server, {
  input: { id: 'bat_missing' },
  authed: { status: 404, code: 'JOB_NOT_FOUND' },
});
describeKeyedProcedureChecks('batches.cancel', server, {
  input: { id: 'bat_missing' },
  authed: { status: 404, code: 'JOB_NOT_FOUND' },
});

const PRIVATE = [
  'https://127.0.0.1/hook',
  'http://127.0.0.1:8080/hook',
  'http://127.1.2.3/',
  'http://10.1.2.3/',
  'http://172.16.0.1/',
  'http://192.168.1.1/',
  'http://169.254.169.254/latest/meta-data',
  'http://100.64.0.1/',
  'http://0.0.0.0/',
  'http://[::1]/',
  'http://[::ffff:127.0.0.1]/',
  'http://[fd00::1]/',
  'http://[fe80::1]/',
  'https://localhost/hook',
];

describe('callbackUrl', () => {
  it.each(PRIVATE)('%s is refused with 400 INVALID_REQUEST, nothing created or charged', async (callbackUrl) => {
    const { key } = await s.newKey({ credits: 10 });
    const r = await rest(s.url, 'POST', '/batches', { key, body: { videos: [freshVideoId()], callbackUrl } });
    expect(r.status).toBe(400);
    expect(r.json.error).toEqual({ code: 'INVALID_REQUEST', message: expect.stringMatching(/^callbackUrl /) });
    const [row] = await s.deps.sql<
      { n: number }[]
    >`select count(*)::int as n from batches where callback_url = ${callbackUrl}`;
    expect(row!.n).toBe(0);
  });

  it('is refused the same on tRPC and MCP', async () => {
    const { key } = await s.newKey({ credits: 10 });
    await expect(
      trpcClient(s.url, key).batches.create.mutate({ videos: [freshVideoId()], callbackUrl: 'http://10.0.0.1/x' }),
    ).rejects.toMatchObject({ data: { code: 'INVALID_REQUEST', httpStatus: 400 } });
    const client = await mcpClient(s.url, key);
    const result = await client.callTool({
      name: 'create_batch',
      arguments: { videos: [freshVideoId()], callbackUrl: 'http://127.0.0.1/x' },
    });
    expect(mcpError(result)?.code).toBe('INVALID_REQUEST');
    await client.close();
  });

  it('must be https unless the operator allows http; no credentials, no other schemes', async () => {
    const { key } = await httpsOnly.newKey({ credits: 10 });
    for (const callbackUrl of [
      'http://example.com/hook',
      'ftp://example.com/',
      'https://user:pw@example.com/',
      'not a url',
    ]) {
      const r = await rest(httpsOnly.url, 'POST', '/batches', { key, body: { videos: [freshVideoId()], callbackUrl } });
      expect([callbackUrl, r.status, r.json.error.code]).toEqual([callbackUrl, 400, 'INVALID_REQUEST']);
    }
  });
});

describe('a blank listing source', () => {
  // A playlist or channel of only spaces once passed as given, then matched no source: a 502 after a free lookup.
  it.each([{ playlist: '' }, { playlist: '   ' }, { channel: '' }, { channel: ' \t ' }])(
    '%o is refused with 400 INVALID_REQUEST on REST, tRPC and MCP, nothing listed or created',
    async (source) => {
      const { key, accountId } = await s.newKey({ credits: 10 });
      const r = await rest(s.url, 'POST', '/batches', { key, body: { ...source, maxVideos: 1 } });
      expect([r.status, r.json.error.code]).toEqual([400, 'INVALID_REQUEST']);
      await expect(trpcClient(s.url, key).batches.create.mutate({ ...source, maxVideos: 1 })).rejects.toMatchObject({
        data: { code: 'INVALID_REQUEST', httpStatus: 400 },
      });
      const client = await mcpClient(s.url, key);
      expect(
        mcpError(await client.callTool({ name: 'create_batch', arguments: { ...source, maxVideos: 1 } }))?.code,
      ).toBe('INVALID_REQUEST');
      await client.close();
      const [row] = await s.deps.sql<
        { n: number }[]
      >`select count(*)::int as n from batches where account_id = ${accountId}`;
      expect(row!.n).toBe(0);
    },
  );
});
