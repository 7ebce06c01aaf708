// The Tasks extension (io.modelcontextprotocol/tasks, 2026-07-28) over raw JSON-RPC: a speech-to-text transcript of a
// direct media file is answered as a task to a client that declares the extension, and polled with tasks/get to its
// result; a client that does not declare it gets today's queued answer and get_job; tasks are private to an account.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMediaGateway } from '../../src/infra/net/media-gateway.ts';
import { startFakeWhisper, type FakeWhisper } from '../support/fake-whisper.ts';
import { audioAvailable } from '../support/speech-audio.ts';
import { speechMedia } from '../support/speech-media.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';
import { startVideoServer, type VideoServer } from '../support/video-server.ts';

const REVISION = '2026-07-28';
const TASKS = 'io.modelcontextprotocol/tasks';

describe.skipIf(!audioAvailable)('MCP Tasks extension', { timeout: 120_000 }, () => {
  let s: TestServer;
  let files: VideoServer;
  let whisper: FakeWhisper;

  beforeAll(async () => {
    const media = speechMedia();
    whisper = await startFakeWhisper();
    files = await startVideoServer({ '/talk.mp4': { file: media.mp4, contentType: 'video/mp4' } });
    // A short wait, so a transcription is still running when the tool answers.
    s = await startTestServer(
      {
        STT_ENGINE: 'openai-compatible',
        STT_BASE_URL: whisper.origin,
        STT_MODEL: 'whisper-test',
        REQUEST_WAIT_MS: '100',
      },
      { mediaGateway: createMediaGateway({ policy: (ip) => ip === '127.0.0.1', allowHttp: true }) },
    );
  }, 120_000);
  afterAll(async () => {
    await s?.close();
    await files?.close();
    await whisper?.close();
  });

  const meta = (tasks: boolean) => ({
    'io.modelcontextprotocol/protocolVersion': REVISION,
    'io.modelcontextprotocol/clientInfo': { name: 'raw-tasks', version: '1' },
    'io.modelcontextprotocol/clientCapabilities': tasks ? { extensions: { [TASKS]: {} } } : {},
  });
  let nextId = 1;
  /** One JSON-RPC request of the 2026-07-28 revision, with the routing headers it requires. */
  const rpc = async (key: string, method: string, params: Record<string, unknown>, name?: string) => {
    const res = await fetch(`${s.url}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${key}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': REVISION,
        'mcp-method': method,
        ...(name ? { 'mcp-name': name } : {}),
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: nextId++, method, params }),
    });
    return { status: res.status, json: await res.json() };
  };
  const transcribe = (key: string, tasks: boolean) =>
    rpc(
      key,
      'tools/call',
      { name: 'get_video_subtitles', arguments: { url: files.url('/talk.mp4') }, _meta: meta(tasks) },
      'get_video_subtitles',
    );
  const getTask = (key: string, taskId: string, tasks = true) =>
    rpc(key, 'tasks/get', { taskId, _meta: meta(tasks) }, taskId);

  it('server/discover declares the extension', async () => {
    const { key } = await s.newKey({ credits: 1 });
    const r = await rpc(key, 'server/discover', { _meta: meta(true) });
    expect(r.json.result.capabilities.extensions).toMatchObject({ [TASKS]: {} });
  });

  it('answers speech-to-text as a task, polled with tasks/get to the transcript; charged once', async () => {
    const { key, accountId } = await s.newKey({ credits: 10 });
    const created = await transcribe(key, true);
    expect(created.status).toBe(200);
    expect(created.json.result).toMatchObject({
      resultType: 'task',
      taskId: expect.stringMatching(/^job_/),
      status: 'working',
      pollIntervalMs: 2000,
      ttlMs: null,
    });
    const { taskId } = created.json.result;
    let polled = await getTask(key, taskId);
    for (const until = Date.now() + 90_000; polled.json.result?.status === 'working'; ) {
      if (Date.now() > until) throw new Error('the task is still working');
      await new Promise((r) => setTimeout(r, 100));
      polled = await getTask(key, taskId);
    }
    expect(polled.json.result).toMatchObject({ resultType: 'complete', taskId, status: 'completed' });
    const result = polled.json.result.result;
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ id: taskId, status: 'succeeded' });
    expect(result.structuredContent.result.transcript.segments.length).toBeGreaterThan(0);
    expect(result.structuredContent.result.transcript.source).toBe('speech-to-text');
    const [row] = await s.deps.sql<{ sum: number }[]>`
      select coalesce(sum(delta), 0)::int as sum from credit_ledger where account_id = ${accountId} and kind <> 'grant'`;
    expect(row!.sum).toBe(-result.structuredContent.creditsCharged);
    expect(result.structuredContent.creditsCharged).toBeGreaterThan(0);

    // Another account cannot see it: the same answer as for an id that never existed.
    const other = await s.newKey({ credits: 1 });
    const foreign = await getTask(other.key, taskId);
    const unknown = await getTask(other.key, 'job_doesnotexist');
    expect(foreign.json.error.code).toBe(-32602);
    expect(unknown.json.error.code).toBe(-32602);
    expect(foreign.json.error.message.replace(taskId, 'X')).toBe(
      unknown.json.error.message.replace('job_doesnotexist', 'X'),
    );
    // update and cancel acknowledge a task of the caller's (a job runs to its end; nothing asks for input).
    expect((await rpc(key, 'tasks/cancel', { taskId, _meta: meta(true) }, taskId)).json.result).toEqual({
      resultType: 'complete',
    });
    expect(
      (await rpc(key, 'tasks/update', { taskId, inputResponses: {}, _meta: meta(true) }, taskId)).json.result,
    ).toEqual({ resultType: 'complete' });
  });

  it('a client that does not declare it gets the queued answer and a job, and -32021 on tasks/get', async () => {
    const { key } = await s.newKey({ credits: 10 });
    const r = await transcribe(key, false);
    const out = r.json.result.structuredContent;
    expect(r.json.result.resultType ?? 'complete').toBe('complete');
    expect(['queued', 'running', 'succeeded']).toContain(out.status);
    expect(out.job.id).toMatch(/^job_/);
    const refused = await getTask(key, out.job.id, false);
    expect(refused.json.error).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { extensions: { [TASKS]: {} } } },
    });
  });
});
