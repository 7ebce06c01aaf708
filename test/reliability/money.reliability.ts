// Money under concurrency: 1,000 mixed requests at once (cached and uncached subtitles, frames, credits) across a few
// keys with small balances. Afterwards the ledger explains every balance, nothing went below zero, every charge
// belongs to a 2xx answer, every charged 2xx has its charge, and identical concurrent misses made one extraction.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedAvailable } from '../support/fixture-files.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';
import { call, isErrorShape, newVideoId, note, relDatabase, startMixedYoutube, type MixedYoutube } from './support.ts';
import { utcDay } from '../support/stores.ts';

const LONG = 'Fjg5lYqvzUs';
const ALLOWANCE = 3;

describe.skipIf(!sharedAvailable)('money under concurrency', () => {
  let yt: MixedYoutube;
  let s: TestServer;
  let db: Awaited<ReturnType<typeof relDatabase>>;
  beforeAll(async () => {
    yt = await startMixedYoutube();
    db = await relDatabase();
    s = await startTestServer(
      { YOUTUBE_BASE_URL: yt.origin, DAILY_FREE_CREDITS: String(ALLOWANCE), FRAME_CONCURRENCY: '2' },
      {},
      { database: db },
    );
  });
  afterAll(async () => {
    await s?.close();
    await yt?.close();
    await db?.drop();
  });

  it('1,000 concurrent mixed requests: ledger = balances, no negative balance, charges only for 2xx, one extraction per miss', async () => {
    const cached = newVideoId('C');
    const seeder = await s.newKey({ credits: 10, rateLimit: 1_000_000 });
    expect(
      (await call(s.url, 'POST', '/api/v1/subtitles', { key: seeder.key, body: { videoId: cached } })).status,
    ).toBe(200);

    const keys = await Promise.all([12, 12, 12, 6].map((credits) => s.newKey({ credits, rateLimit: 1_000_000 })));
    const misses = Array.from({ length: 6 }, () => newVideoId('M'));
    const frameTimes = [101, 102, 103, 104, 105, 106, 107, 108];
    type Op = 'cached' | 'miss' | 'frame' | 'credits';
    const plan = Array.from({ length: 1000 }, (_, i) => {
      const k = keys[i % keys.length]!;
      const slot = i % 10;
      const op: Op = slot < 4 ? 'cached' : slot < 6 ? 'miss' : slot === 6 ? 'frame' : 'credits';
      return {
        i,
        k,
        op,
        videoId: op === 'miss' ? misses[i % misses.length]! : op === 'frame' ? LONG : cached,
        t: frameTimes[i % frameTimes.length]!,
      };
    });
    const t0 = Date.now();
    const results = await Promise.all(
      plan.map(async (p) => {
        const r =
          p.op === 'credits'
            ? await call(s.url, 'GET', '/api/v1/credits', { key: p.k.key })
            : p.op === 'frame'
              ? await call(s.url, 'POST', '/api/v1/frames', {
                  key: p.k.key,
                  body: { videoId: LONG, t: p.t, width: 160 },
                })
              : await call(s.url, 'POST', '/api/v1/subtitles', { key: p.k.key, body: { videoId: p.videoId } });
        return { ...p, ...r };
      }),
    );
    const seconds = (Date.now() - t0) / 1000;

    // Every answer is a success or a clean refusal in the spec's shape; no 500.
    const byStatus = new Map<string, number>();
    for (const r of results) {
      const k = `${r.op} ${r.status}${r.status >= 400 ? ` ${r.json?.error?.code}` : ''}`;
      byStatus.set(k, (byStatus.get(k) ?? 0) + 1);
      expect(r.status, `${r.op}: ${r.text.slice(0, 200)}`).not.toBe(500);
      expect([200, 402, 503], `${r.op}: ${r.text.slice(0, 200)}`).toContain(r.status);
      if (r.status >= 400) expect(isErrorShape(r.json), r.text.slice(0, 200)).toBe(true);
      expect(r.requestId).toMatch(/^req_/);
    }

    const sql = s.deps.sql;
    const ledger = await sql<
      {
        account_id: string;
        kind: string;
        delta: number;
        free_delta: number;
        purchased_delta: number;
        request_id: string | null;
        operation: string;
        video_id: string | null;
        created_at: Date;
      }[]
    >`
      select account_id, kind, delta, free_delta, purchased_delta, request_id, operation, video_id, created_at from credit_ledger`;
    const accounts = await sql<
      { id: string; free_day: string | null; free_remaining: number; purchased_balance: number }[]
    >`
      select id, free_day::text, free_remaining, purchased_balance from accounts`;
    const today = utcDay(new Date());
    for (const a of accounts) {
      const rows = ledger.filter((l) => l.account_id === a.id);
      // Purchased credits: every ledger row, grants included, sums to the balance.
      expect(
        rows.reduce((n, l) => n + l.purchased_delta, 0),
        a.id,
      ).toBe(a.purchased_balance);
      expect(a.purchased_balance).toBeGreaterThanOrEqual(0);
      expect(a.free_remaining).toBeGreaterThanOrEqual(0);
      if (a.free_day === today) {
        const freeToday = rows.filter((l) => utcDay(l.created_at) === today).reduce((n, l) => n + l.free_delta, 0);
        expect(ALLOWANCE + freeToday, a.id).toBe(a.free_remaining);
      }
    }

    const ok = new Map(results.filter((r) => r.status === 200).map((r) => [r.requestId!, r]));
    const failed = new Set(results.filter((r) => r.status !== 200).map((r) => r.requestId!));
    const charges = ledger.filter((l) => l.kind === 'charge' && l.account_id !== seeder.accountId);
    for (const c of charges) {
      expect(failed.has(c.request_id!), `charge for failed request ${c.request_id}`).toBe(false);
      expect(ok.has(c.request_id!), `charge ${c.request_id} matches no 2xx answer`).toBe(true);
    }
    for (const r of ok.values()) {
      if (r.op === 'credits') continue;
      const charged = r.json.creditsCharged as number;
      const rows = charges.filter((c) => c.request_id === r.requestId);
      expect(
        rows.reduce((n, c) => n - c.delta, 0),
        `${r.op} ${r.requestId}`,
      ).toBe(charged);
      if (r.op !== 'frame' && !r.json.cached) expect(charged).toBe(2);
      if (r.op === 'frame') for (const f of r.json.frames) if (!f.cached) expect(charged).toBeGreaterThan(0);
    }

    // Identical concurrent misses: one caption download, one stored transcript, at most one charge per video.
    for (const v of misses) {
      expect(yt.captions(v), v).toBe(1);
      expect(charges.filter((c) => c.video_id === v && c.operation === 'subtitles').length, v).toBeLessThanOrEqual(1);
      const anyOk = results.some((r) => r.videoId === v && r.status === 200);
      if (anyOk) expect(await sql`select 1 from transcripts where video_id = ${v}`).toHaveLength(1);
    }
    expect(yt.captions(cached)).toBe(1);
    const frameCharges = charges.filter((c) => c.operation === 'frame');
    expect(frameCharges.length).toBeLessThanOrEqual(frameTimes.length);

    note(
      '1. Money under concurrency',
      [
        `1,000 requests fired at once (${seconds.toFixed(1)} s to drain) over 4 keys with 15, 15, 15 and 9 spendable credits (allowance ${ALLOWANCE} + purchased),`,
        `cached subtitles, 6 uncached videos (about 33 identical requests each), frames at 8 timestamps of one video, and credit reads.`,
        '',
        '| request | answers |',
        '| --- | --- |',
        ...[...byStatus.entries()].sort().map(([k, n]) => `| ${k} | ${n} |`),
        '',
        `Checked: purchased_balance = sum(purchased_delta) for every account (grants included), today's free_remaining = allowance +`,
        `today's free_delta, no balance below zero, all ${charges.length} charge rows belong to 2xx answers and match their creditsCharged,`,
        'no failed request charged, every uncached 2xx charged; each uncached video downloaded its captions exactly once',
        `(${misses.map((v) => yt.captions(v)).join(', ')}) with at most one charge; ${frameCharges.length} frame charges for 8 timestamps.`,
      ].join('\n'),
    );
  });
});
