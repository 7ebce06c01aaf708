// Offline, or DNS that does not know YouTube: requests fail with the cause, through the real service. `.invalid`
// never resolves (RFC 2606), so this is the same on a machine with or without a network.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXTRACT_QUEUE } from '../../src/jobs/queues.ts';
import { mcpClient, mcpError, rest } from '../support/clients.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ YOUTUBE_BASE_URL: 'https://youtube.subtext-offline.invalid' });
});
afterAll(() => s?.close());

const HOST_NOT_FOUND =
  /network error: (host not found \(ENOTFOUND\): youtube\.subtext-offline\.invalid does not resolve|DNS lookup of youtube\.subtext-offline\.invalid failed)/;

describe('YouTube unreachable', () => {
  it('REST and MCP answer 502 EXTRACTION_FAILED naming the host that did not resolve, and charge nothing', async () => {
    const { key } = await s.newKey({ credits: 5 });
    const r = await rest(s.url, 'POST', '/subtitles', { key, body: { videoId: 'OwnVideo001' } });
    expect(r.status).toBe(502);
    expect(r.json.error.code).toBe('EXTRACTION_FAILED');
    expect(r.json.error.message).toMatch(HOST_NOT_FOUND);
    // Said once: the chain stopped at the first client rather than repeating the lookup for each.
    expect(r.json.error.message.match(/subtext-offline\.invalid/g)).toHaveLength(1);
    // ...and failed for good at once: no retry of the job, which would only make the caller wait for the same answer.
    const jobs = await s.deps
      .sql`select retry_count from pgboss.job where name = ${EXTRACT_QUEUE} and data->>'videoId' = 'OwnVideo001'`;
    expect(jobs.map((j) => ({ ...j }))).toEqual([{ retry_count: 0 }]);

    const client = await mcpClient(s.url, key);
    const tool: any = await client.callTool({ name: 'get_video_info', arguments: { videoId: 'OwnVideo002' } });
    await client.close();
    expect(tool.isError).toBe(true);
    expect(mcpError(tool)).toMatchObject({ code: 'EXTRACTION_FAILED', message: expect.stringMatching(HOST_NOT_FOUND) });

    const credits = await rest(s.url, 'GET', '/credits', { key });
    expect(credits.json.purchasedBalance).toBe(5);
  }, 120_000);
});
