// Review (MCP Tasks extension): tasks/cancel of a batch reads the batch (get_batch) and then cancels it
// (cancel_batch), but the request is counted as one call: the second procedure found no admitted call left, was
// refused as rate-limited, and the refusal was dropped. The answer said "complete"; the batch went on, and charged.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mcpClient } from '../support/clients.ts';
import { sharedAvailable } from '../support/fixture-files.ts';
import { isPlayer } from '../support/loopback-youtube.ts';
import { ID, pollUntil } from '../transcripts/recorded-youtube.ts';
import { startBatchHarness, type BatchHarness } from '../batches/batch-harness.ts';

const REVISION = '2026-07-28';
const TASKS = 'io.modelcontextprotocol/tasks';
const VIDEOS = [
  ID.captions9,
  ID.manualAndAsr,
  ID.manualAndAsrVisionos,
  ID.tracks19,
  ID.tracks36,
  ID.web15,
  ID.asrOnlyFr,
  ID.manualOnlyDe,
];

describe.skipIf(!sharedAvailable)('tasks/cancel of a batch', { timeout: 120_000 }, () => {
  let h: BatchHarness;
  beforeAll(async () => {
    h = await startBatchHarness();
  }, 60_000);
  afterAll(async () => h?.close());

  it('cancels the videos not started, as cancel_batch does', async () => {
    const { key } = await h.s.newKey({ credits: 20 });
    const client = await mcpClient(h.s.url, key);
    const held = h.yt.hold(isPlayer());
    const created: any = await client.callTool({ name: 'create_batch', arguments: { videos: VIDEOS } });
    expect(created.isError).toBeFalsy();
    const id = created.structuredContent.id as string;
    // Four run at once (EXTRACTION_CONCURRENCY), held at YouTube; the other four wait.
    await held.caughtAtLeast(4);
    const cancel = (as: string) =>
      fetch(`${h.s.url}/mcp`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${as}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': REVISION,
          'mcp-method': 'tasks/cancel',
          'mcp-name': id,
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tasks/cancel',
          params: {
            taskId: id,
            _meta: {
              'io.modelcontextprotocol/protocolVersion': REVISION,
              'io.modelcontextprotocol/clientInfo': { name: 'review', version: '1' },
              'io.modelcontextprotocol/clientCapabilities': { extensions: { [TASKS]: {} } },
            },
          },
        }),
      }).then((r) => r.json());
    // Another account's cancel is not found, and cancels nothing.
    const other = await h.s.newKey({ credits: 1 });
    expect((await cancel(other.key)).error).toMatchObject({ code: -32602 });
    expect((await cancel(key)).result).toEqual({ resultType: 'complete' });
    held.release();
    await pollUntil(
      async () =>
        ((await client.callTool({ name: 'get_batch', arguments: { id } })) as any).structuredContent.status !==
        'running',
      'the batch ends',
      30_000,
    );
    const done: any = await client.callTool({ name: 'get_batch', arguments: { id } });
    expect(done.structuredContent).toMatchObject({ status: 'cancelled', counts: { succeeded: 4, cancelled: 4 } });
    await client.close();
  });
});
