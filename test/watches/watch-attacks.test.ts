// Attacks on watches through the running service (two instances on one database, the loopback YouTube of
// channel-page.ts, a webhook receiver): a check killed between what it records and what it sends, a watch deleted
// while it is checked, a zero balance with transcripts on, a YouTube budget that is spent, hostile input.
import { describe, expect, it } from 'vitest';
import { ServiceError } from '../../src/domain/errors.ts';
import { TRANSCRIPT_PRICE } from '../../src/domain/pricing/prices.ts';
import { sweepStalledItems } from '../../src/domain/batches/sweep-stalled-items.ts';
import { checkDueWatches, type CheckWatchPorts } from '../../src/domain/watches/check-watch.ts';
import { sweepItemsPorts } from '../../src/jobs/sweep-ports.ts';
import { watchCheckPorts } from '../../src/jobs/watch-worker.ts';
import { mcpClient, mcpError, rest, trpcClient } from '../support/clients.ts';
import { browseAvailable, BROWSE } from '../support/youtube-browse-replay.ts';
import { balanceOf, pollUntil } from '../transcripts/recorded-youtube.ts';
import { NEWEST } from './channel-page.ts';
import { useWatchHarness } from './watch-harness.ts';

const channel = { channelId: BROWSE.channelVideos.id };
const h = useWatchHarness({ WATCH_MAX_FAILURES: '2', FREE_LOOKUPS_PER_10_MIN: '1' });

const checkOn = (ports: CheckWatchPorts) => checkDueWatches(ports);
const checkOnBoth = async () =>
  (await Promise.all([checkOn(watchCheckPorts(h.s1.deps)), checkOn(watchCheckPorts(h.s2.deps))])).reduce(
    (a, b) => a + b,
  );
const makeDue = (id: string) => h.s1.deps.sql`update watches set next_check_at = now() where id = ${id}`;
/** Only the watches of the test at hand are due. */
const quietOthers = () => h.s1.deps.sql`update watches set next_check_at = now() + interval '1 day'`;
const historyOf = async (key: string, id: string) =>
  ((await rest(h.s1.url, 'GET', `/watches/${id}`, { key })).json.history as { kind: string; videoId: string }[]).map(
    (e) => `${e.kind} ${e.videoId}`,
  );
const receivedFor = (id: string) =>
  h.receiver.received.map((h) => JSON.parse(h.body)).filter((b) => b.data.watchId === id);

/** A watch on the channel whose first check has noted it with `hidden` left out. */
async function noted(key: string, hidden: string[], body: Record<string, unknown> = {}): Promise<string> {
  await quietOthers();
  h.state.hidden = hidden;
  const w = await rest(h.s1.url, 'POST', '/watches', { key, body: { channel, ...body } });
  expect(w.status, JSON.stringify(w.json)).toBe(200);
  expect(await checkOnBoth()).toBe(1);
  h.state.hidden = [];
  await makeDue(w.json.id);
  return w.json.id as string;
}

describe.skipIf(!browseAvailable)('watch attacks', { timeout: 120_000 }, () => {
  it('at a zero balance every new video’s transcript is refused with INSUFFICIENT_CREDITS, no free lookup spent', async () => {
    const poor = await h.s1.newKey();
    const id = await noted(poor.key, [...NEWEST], { transcripts: true });
    expect(await checkOnBoth()).toBe(1);
    const got = (await rest(h.s1.url, 'GET', `/watches/${id}`, { key: poor.key })).json;
    const steps = got.history.filter((e: { kind: string }) => e.kind !== 'video_published');
    expect(steps.map((e: { kind: string; detail: string }) => [e.kind, e.detail.split(':')[0]])).toEqual([
      ['transcript_refused', 'INSUFFICIENT_CREDITS'],
      ['transcript_refused', 'INSUFFICIENT_CREDITS'],
    ]);
    expect(got).toMatchObject({ status: 'active', failures: 0 });
    expect(await balanceOf(h.s1, poor.key)).toBe(0);
    // The account's free lookup is still there for the account's own use.
    const [n] = await h.s1.deps.sql<{ n: number }[]>`select count(*)::int as n from videos`;
    expect(n!.n).toBe(0);
  });

  it('a check killed after recording a new video and before sending it: the event is sent once and the transcript fetched later', async () => {
    const { key, accountId } = await h.s1.newKey({ credits: 10 });
    const id = await noted(key, [NEWEST[0]], { transcripts: true, callbackUrl: h.receiver.url });
    // The worker dies as it sends its first webhook: that check never goes on (the promise is left unsettled).
    const killed = () => new Promise<never>(() => {});
    const base = watchCheckPorts(h.s1.deps);
    const dying: CheckWatchPorts = { ...base, webhooks: { ...base.webhooks, create: killed }, enqueue: killed };
    let died = false;
    void checkOn(dying).finally(() => {
      died = true;
    });
    await pollUntil(async () => (await historyOf(key, id)).length > 0 || died, 'the dying check got that far');
    expect(died).toBe(false);

    // The next check (either instance), and the sweep that sends what was stored but never queued.
    await makeDue(id);
    await checkOnBoth();
    await h.s1.deps.sql`update webhook_deliveries set next_attempt_at = now() - interval '1 minute'
      where account_id = ${accountId} and status = 'pending'`;
    await sweepStalledItems(sweepItemsPorts(h.s1.deps));
    await pollUntil(async () => receivedFor(id).length >= 2, 'both events received');
    // Each once (webhooks promise no order: the one the sweep sent may arrive after the later one).
    expect(
      receivedFor(id)
        .map((b) => `${b.type} ${b.data.videoId ?? b.data.video.videoId}`)
        .sort(),
    ).toEqual([`watch.transcript_ready ${NEWEST[0]}`, `watch.video_published ${NEWEST[0]}`]);
    expect(await historyOf(key, id)).toEqual([`transcript_ready ${NEWEST[0]}`, `video_published ${NEWEST[0]}`]);
    expect(await balanceOf(h.s1, key)).toBe(10 - TRANSCRIPT_PRICE);
  });

  it('two instances checking one watch at the same time: each event once, the transcript charged once', async () => {
    const { key, accountId } = await h.s1.newKey({ credits: 10 });
    const id = await noted(key, [NEWEST[1]], { transcripts: true, callbackUrl: h.receiver.url });
    const base = watchCheckPorts(h.s1.deps);
    let inner = -1;
    const lister = {
      ...base.lister,
      channel: async (...args: Parameters<typeof base.lister.channel>) => {
        const page = await base.lister.channel(...args);
        // While this instance reads the listing, the watch is due again and the other instance checks it in full.
        if (inner < 0) {
          await makeDue(id);
          inner = await checkOn(watchCheckPorts(h.s2.deps));
        }
        return page;
      },
    };
    expect(await checkOn({ ...base, lister })).toBe(1);
    expect(inner).toBe(1);
    expect(await historyOf(key, id)).toEqual([`transcript_ready ${NEWEST[1]}`, `video_published ${NEWEST[1]}`]);
    expect(await balanceOf(h.s1, key)).toBe(10 - TRANSCRIPT_PRICE);
    const [n] = await h.s1.deps.sql<{ n: number }[]>`
      select count(*)::int as n from webhook_deliveries where account_id = ${accountId}`;
    expect(n!.n).toBe(2);
    await pollUntil(async () => receivedFor(id).length >= 2, 'both events received');
    expect(receivedFor(id)).toHaveLength(2);
  });

  it('a watch deleted while it is checked does not stop the other watches of the look', async () => {
    const a = await h.s1.newKey();
    const b = await h.s1.newKey();
    await quietOthers();
    h.state.hidden = [NEWEST[0]];
    const wa = (await rest(h.s1.url, 'POST', '/watches', { key: a.key, body: { channel } })).json.id as string;
    const wb = (await rest(h.s1.url, 'POST', '/watches', { key: b.key, body: { channel } })).json.id as string;
    expect(await checkOnBoth()).toBe(2);
    h.state.hidden = [];
    await makeDue(wa);
    await makeDue(wb);
    const base = watchCheckPorts(h.s1.deps);
    let deleted = false;
    const lister = {
      ...base.lister,
      channel: async (...args: Parameters<typeof base.lister.channel>) => {
        const page = await base.lister.channel(...args);
        // The first watch checked is deleted by its owner while its listing is read.
        if (!deleted) {
          deleted = true;
          const [first] = await h.s1.deps.sql<{ id: string; account_id: string }[]>`
            select id, account_id from watches where id in (${wa}, ${wb}) order by next_check_at, id limit 1`;
          const owner = first!.id === wa ? a.key : b.key;
          expect((await rest(h.s1.url, 'DELETE', `/watches/${first!.id}`, { key: owner })).status).toBe(200);
        }
        return page;
      },
    };
    expect(await checkOn({ ...base, lister })).toBe(2);
    const left = (await rest(h.s1.url, 'GET', '/watches', { key: a.key })).json.watches.length ? wa : wb;
    const owner = left === wa ? a.key : b.key;
    expect(await historyOf(owner, left)).toEqual([`video_published ${NEWEST[0]}`]);
  });

  it('a spent YouTube budget (SERVICE_BUSY) is the service’s, not the watch’s: it is not paused for it', async () => {
    const { key } = await h.s1.newKey();
    await quietOthers();
    const w = (await rest(h.s1.url, 'POST', '/watches', { key, body: { channel } })).json.id as string;
    const base = watchCheckPorts(h.s1.deps);
    const busy = (): never => {
      throw new ServiceError('SERVICE_BUSY', 'YouTube budget spent', 60);
    };
    const lister = { ...base.lister, channel: busy };
    for (let i = 0; i < 3; i++) {
      await makeDue(w);
      expect(await checkOn({ ...base, lister })).toBe(1);
    }
    const got = (await rest(h.s1.url, 'GET', `/watches/${w}`, { key })).json;
    expect(got).toMatchObject({ status: 'active', pausedReason: null });
    expect(got.lastError).toMatch(/SERVICE_BUSY/);
    // A watch whose check fails for its own reasons is still paused (WATCH_MAX_FAILURES=2 here).
    const broken = {
      ...base.lister,
      channel: (): never => {
        throw new ServiceError('EXTRACTION_FAILED', 'could not list');
      },
    };
    for (let i = 0; i < 2; i++) {
      await makeDue(w);
      await checkOn({ ...base, lister: broken });
    }
    expect((await rest(h.s1.url, 'GET', `/watches/${w}`, { key })).json).toMatchObject({ status: 'paused' });
  });

  it('a check passes the lookup admission: with the shared egress budget spent, no page reaches YouTube and the watch is not paused', async () => {
    const { key } = await h.s1.newKey();
    await quietOthers();
    const w = (await rest(h.s1.url, 'POST', '/watches', { key, body: { channel } })).json.id as string;
    const limit = h.s1.deps.config.LOOKUP_EGRESS_PER_MINUTE;
    expect(limit).toBeGreaterThan(0);
    // This minute's and the next minute's budget spent by other lookups of the cluster.
    const minute = Date.now() - (Date.now() % 60_000);
    for (const start of [minute, minute + 60_000])
      await h.s1.deps.sql`
        insert into rate_counters (key_id, window_start, count)
        values ('lookup-egress', ${new Date(start).toISOString()}::timestamptz, ${limit})
        on conflict (key_id, window_start) do update set count = ${limit}`;
    try {
      const before = h.yt.requests.length;
      for (let i = 0; i < 3; i++) {
        await makeDue(w);
        expect(await checkOnBoth()).toBe(1);
      }
      expect(h.yt.requests.length - before).toBe(0);
      const got = (await rest(h.s1.url, 'GET', `/watches/${w}`, { key })).json;
      expect(got).toMatchObject({ status: 'active', pausedReason: null });
      expect(got.lastError).toMatch(/RATE_LIMITED/);
    } finally {
      await h.s1.deps.sql`delete from rate_counters where key_id = 'lookup-egress'`;
    }
  });

  it('hostile ids and targets get a clear 4xx in the error shape, never a 500', async () => {
    const { key } = await h.s1.newKey();
    const other = await h.s1.newKey();
    await quietOthers();
    const mine = (await rest(h.s1.url, 'POST', '/watches', { key: other.key, body: { search: { query: 'x' } } })).json
      .id as string;
    for (const path of [
      `/watches/${mine}`,
      `/watches/${mine.toUpperCase()}`,
      `/watches/${mine}%00`,
      '/watches/%00',
      '/watches/%ED%A0%80',
      `/watches/${'w'.repeat(5000)}`,
      "/watches/wat_'%20or%201=1--",
    ]) {
      for (const method of ['GET', 'DELETE'] as const) {
        const r = await rest(h.s1.url, method, path, { key });
        expect([path, method, r.status, r.json?.error?.code]).toEqual([path, method, r.status, expect.any(String)]);
        expect(r.status, `${method} ${path}`).toBeGreaterThanOrEqual(400);
        expect(r.status, `${method} ${path}`).toBeLessThan(500);
      }
    }
    for (const body of [
      { search: { query: 'a\u0000b' } },
      { search: { query: '\ud800' } },
      { search: { query: 'x'.repeat(5000) } },
      { channel: { url: 'https://127.0.0.1/@x' } },
      { channel: { url: 'https://youtube.com.evil.example/@x' } },
      { channel: { url: `https://youtube.com/@${'a'.repeat(3000)}` } },
      { channel: { url: 'https://youtube.com/@a\ud800' } },
      { channel: { channelId: '@\u0000' } },
      { playlist: { url: 'http://[::1]/playlist?list=PL0123456789' } },
      { playlist: { playlistId: 'PL0123456789\u0000' } },
      { search: { query: 'x' }, lang: 'en\u0000' },
      { search: { query: 'x' }, callbackUrl: 'http://169.254.169.254/latest' },
      { search: { query: 'x' }, intervalSeconds: 1e30 },
      { search: { query: 'x' }, intervalSeconds: -1 },
    ]) {
      const r = await rest(h.s1.url, 'POST', '/watches', { key, body });
      expect([JSON.stringify(body).slice(0, 80), r.status]).toEqual([JSON.stringify(body).slice(0, 80), 400]);
      expect(r.json.error.code).toBe('INVALID_REQUEST');
    }
    // The same on tRPC and MCP: another account's id, a forged one, a NUL, a lone surrogate.
    const mcp = await mcpClient(h.s1.url, key);
    for (const id of [mine, 'wat_forged', 'wat_\u0000', '\ud800', 'x'.repeat(65)]) {
      for (const name of ['get_watch', 'delete_watch']) {
        const code = await mcpRefusal(mcp.callTool({ name, arguments: { id } }));
        expect([name, id, code]).toEqual([name, id, expect.stringMatching(/^(NOT_FOUND|INVALID_REQUEST)$/)]);
      }
      await expect(trpcClient(h.s1.url, key).watches.get.query({ id })).rejects.toMatchObject({
        data: { code: expect.stringMatching(/^(NOT_FOUND|INVALID_REQUEST)$/) },
      });
    }
    expect(await mcpRefusal(mcp.callTool({ name: 'watch_channel', arguments: { search: { query: '\ud800' } } }))).toBe(
      'INVALID_REQUEST',
    );
    await mcp.close();
    // Nothing of the refused ones was stored; the other account's watch is untouched.
    expect((await rest(h.s1.url, 'GET', '/watches', { key })).json.watches).toEqual([]);
    expect((await rest(h.s1.url, 'GET', `/watches/${mine}`, { key: other.key })).status).toBe(200);
  });
});

/**
 * The code of an MCP refusal: a tool result refusing, or (text that is not valid Unicode) the edge's JSON-RPC -32602,
 * which the SDK client throws with the answer in its message.
 */
async function mcpRefusal(call: Promise<unknown>): Promise<string | undefined> {
  try {
    return mcpError(await call)?.code;
  } catch (err) {
    const answer = JSON.parse(String((err as Error).message).replace(/^[^{]*/, ''));
    return answer.error.code === -32602 ? answer.error.data.code : `json-rpc ${answer.error.code}`;
  }
}
