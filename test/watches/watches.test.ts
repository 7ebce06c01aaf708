// Watches end to end: two service instances on one database, a loopback YouTube whose channel gains videos between
// two checks (a first page derived from the recorded one, see channel-page.ts), and a webhook receiver.
import { describe, expect, it } from 'vitest';
import { TRANSCRIPT_PRICE } from '../../src/domain/pricing/prices.ts';
import { checkDueWatches } from '../../src/domain/watches/check-watch.ts';
import { watchCheckPorts } from '../../src/jobs/watch-worker.ts';
import { mcpClient, mcpError, rest, trpcClient } from '../support/clients.ts';
import { browseAvailable, BROWSE } from '../support/youtube-browse-replay.ts';
import { balanceOf, pollUntil } from '../transcripts/recorded-youtube.ts';
import { NEWEST } from './channel-page.ts';
import { useWatchHarness } from './watch-harness.ts';

const channel = { channelId: BROWSE.channelVideos.id };
const h = useWatchHarness();

/** Both instances look for due watches at once; returns how many watches they checked between them. */
async function checkOnBoth(): Promise<number> {
  const [a, b] = await Promise.all([
    checkDueWatches(watchCheckPorts(h.s1.deps)),
    checkDueWatches(watchCheckPorts(h.s2.deps)),
  ]);
  return a + b;
}

/** The interval has passed (instead of waiting it out): the watch is due again. */
const makeDue = (id: string) => h.s1.deps.sql`update watches set next_check_at = now() where id = ${id}`;

const eventsOf = (accountId: string) =>
  h.s1.deps.sql<{ event: string; status: string; body: string }[]>`
    select event, status, body from webhook_deliveries where account_id = ${accountId} order by created_at`;

describe.skipIf(!browseAvailable)('watches', { timeout: 120_000 }, () => {
  it('the scheduled look runs once across the two instances', async () => {
    await pollUntil(async () => {
      const [r] = await h.s1.deps.sql<{ n: number }[]>`
        select count(*)::int as n from pgboss.job where name = 'watch-check' and state = 'completed'`;
      return r!.n >= 1;
    }, 'the start-up look completed');
    const [r] = await h.s1.deps.sql<
      { n: number }[]
    >`select count(*)::int as n from pgboss.job where name = 'watch-check'`;
    expect(r!.n).toBe(1);
  });

  it('a channel gains a video between two checks: one check per due watch, each event delivered once, the transcript charged once', async () => {
    h.state.hidden = [NEWEST[0]];
    const { key, accountId } = await h.s1.newKey({ credits: 10 });
    const created = await rest(h.s1.url, 'POST', '/watches', {
      key,
      body: { channel, transcripts: true, intervalSeconds: 60, callbackUrl: h.receiver.url },
    });
    expect(created.status).toBe(200);
    expect(created.json).toMatchObject({ status: 'active', transcripts: true, history: [], failures: 0 });
    const id = created.json.id as string;
    expect(id).toMatch(/^wat_/);

    // The first check notes what is listed and announces nothing.
    expect(await checkOnBoth()).toBe(1);
    expect((await rest(h.s1.url, 'GET', `/watches/${id}`, { key })).json).toMatchObject({ history: [] });
    expect(await checkOnBoth()).toBe(0);

    h.state.hidden = [];
    await makeDue(id);
    expect(await checkOnBoth()).toBe(1);
    const got = await rest(h.s2.url, 'GET', `/watches/${id}`, { key });
    expect(got.json.history.map((e: { kind: string; videoId: string }) => [e.kind, e.videoId])).toEqual([
      ['transcript_ready', NEWEST[0]],
      ['video_published', NEWEST[0]],
    ]);
    expect(got.json.history[0].creditsCharged).toBe(TRANSCRIPT_PRICE);
    expect(await balanceOf(h.s1, key)).toBe(10 - TRANSCRIPT_PRICE);

    // Nothing new: nothing found, nothing charged, nothing sent.
    await makeDue(id);
    expect(await checkOnBoth()).toBe(1);
    expect((await rest(h.s1.url, 'GET', `/watches/${id}`, { key })).json.history).toHaveLength(2);
    expect(await balanceOf(h.s1, key)).toBe(10 - TRANSCRIPT_PRICE);

    await pollUntil(async () => (await eventsOf(accountId)).every((d) => d.status === 'delivered'), 'delivered');
    const sent = await eventsOf(accountId);
    expect(sent.map((d) => d.event)).toEqual(['watch.video_published', 'watch.transcript_ready']);
    const mine = h.receiver.received.filter((h) => JSON.parse(h.body).data.watchId === id);
    expect(mine.map((h) => JSON.parse(h.body).type)).toEqual(['watch.video_published', 'watch.transcript_ready']);
    expect(JSON.parse(mine[0]!.body).data.video).toMatchObject({ videoId: NEWEST[0] });
    expect(JSON.parse(mine[1]!.body).data).toMatchObject({ videoId: NEWEST[0], segmentCount: expect.any(Number) });
    expect(mine[0]!.headers['webhook-signature']).toMatch(/^v1,/);
  });

  it('another account can neither see nor delete a watch (NOT_FOUND on REST, tRPC and MCP)', async () => {
    const owner = await h.s1.newKey();
    const other = await h.s1.newKey();
    const mcp = await mcpClient(h.s1.url, owner.key);
    const made = await mcp.callTool({
      name: 'watch_channel',
      arguments: { playlist: { playlistId: BROWSE.playlist.id } },
    });
    expect(made.isError).toBeFalsy();
    const id = (made.structuredContent as { id: string }).id;

    const seen = await rest(h.s1.url, 'GET', `/watches/${id}`, { key: other.key });
    expect([seen.status, seen.json.error.code]).toEqual([404, 'NOT_FOUND']);
    const gone = await rest(h.s1.url, 'DELETE', `/watches/${id}`, { key: other.key });
    expect([gone.status, gone.json.error.code]).toEqual([404, 'NOT_FOUND']);
    expect((await rest(h.s1.url, 'GET', '/watches', { key: other.key })).json).toEqual({ watches: [] });
    const otherMcp = await mcpClient(h.s1.url, other.key);
    expect(mcpError(await otherMcp.callTool({ name: 'delete_watch', arguments: { id } }))?.code).toBe('NOT_FOUND');
    await expect(trpcClient(h.s1.url, other.key).watches.get.query({ id })).rejects.toMatchObject({
      data: { code: 'NOT_FOUND' },
    });

    const listed = await mcp.callTool({ name: 'list_watches', arguments: {} });
    expect((listed.content as { text: string }[])[0]!.text).toContain(id);
    expect(await trpcClient(h.s1.url, owner.key).watches.delete.mutate({ id })).toEqual({ id, deleted: true });
    expect((await rest(h.s1.url, 'GET', `/watches/${id}`, { key: owner.key })).status).toBe(404);
    await mcp.close();
    await otherMcp.close();
  });

  it('a flood of watches stops at WATCHES_PER_ACCOUNT, concurrent creations included; bad targets and intervals are refused', async () => {
    const { key } = await h.s1.newKey();
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        rest(i % 2 ? h.s1.url : h.s2.url, 'POST', '/watches', { key, body: { search: { query: `q${i}` } } }),
      ),
    );
    const outcomes = answers.map((a) => `${a.status} ${a.json?.error?.code ?? ''}`).join(', ');
    expect(
      answers.filter((a) => a.status === 200),
      outcomes,
    ).toHaveLength(5);
    const refused = answers.filter((a) => a.status !== 200);
    expect(refused.map((a) => [a.status, a.json.error.code])).toEqual(Array(7).fill([400, 'INVALID_REQUEST']));
    expect(refused[0]!.json.error.message).toMatch(/at most 5 watches/);

    const { key: k2 } = await h.s1.newKey();
    for (const body of [
      {},
      { channel, search: { query: 'x' } },
      { channel, intervalSeconds: 10 },
      { playlist: { url: 'https://example.com/not-a-playlist' } },
      { channel, callbackUrl: 'http://10.0.0.1/hook' },
    ]) {
      const r = await rest(h.s1.url, 'POST', '/watches', { key: k2, body });
      expect([r.status, r.json.error.code]).toEqual([400, 'INVALID_REQUEST']);
    }
  });

  it('at a zero balance the transcript step is refused and recorded on that watch; other watches go on, nothing is paused', async () => {
    h.state.hidden = [NEWEST[1]];
    const poor = await h.s1.newKey();
    const other = await h.s1.newKey();
    const p = await rest(h.s1.url, 'POST', '/watches', { key: poor.key, body: { channel, transcripts: true } });
    const o = await rest(h.s1.url, 'POST', '/watches', { key: other.key, body: { channel } });
    await checkOnBoth();
    h.state.hidden = [];
    await makeDue(p.json.id);
    await makeDue(o.json.id);
    expect(await checkOnBoth()).toBe(2);

    const poorWatch = (await rest(h.s1.url, 'GET', `/watches/${p.json.id}`, { key: poor.key })).json;
    expect(poorWatch).toMatchObject({ status: 'active', failures: 0, pausedReason: null });
    expect(poorWatch.history.map((e: { kind: string }) => e.kind)).toEqual(['transcript_refused', 'video_published']);
    expect(poorWatch.history[0].detail).toMatch(/^INSUFFICIENT_CREDITS: /);
    const otherWatch = (await rest(h.s1.url, 'GET', `/watches/${o.json.id}`, { key: other.key })).json;
    expect(otherWatch).toMatchObject({ status: 'active', failures: 0 });
    expect(otherWatch.history.map((e: { kind: string; videoId: string }) => [e.kind, e.videoId])).toEqual([
      ['video_published', NEWEST[1]],
    ]);
    expect(await balanceOf(h.s1, poor.key)).toBe(0);
  });

  it('a watch on a playlist YouTube does not know (private, deleted) is paused with its reason', async () => {
    const { key } = await h.s1.newKey();
    const w = await rest(h.s1.url, 'POST', '/watches', {
      key,
      body: { playlist: { playlistId: 'PLnotARealPlaylist000' } },
    });
    expect(await checkOnBoth()).toBe(1);
    const got = (await rest(h.s1.url, 'GET', `/watches/${w.json.id}`, { key })).json;
    expect(got).toMatchObject({ status: 'paused', failures: 1 });
    expect(got.pausedReason).toMatch(/NOT_FOUND/);
    await makeDue(w.json.id);
    expect(await checkOnBoth()).toBe(0);
  });
});
