import type { Sql } from '../../../db/client.ts';
import { newId } from '../../domain/ids.ts';
import { jsonValue } from './json-value.ts';
import type { WatchEvent } from '../../domain/watches/schemas.ts';
import type { WatchRow, WatchStore } from '../../domain/watches/watch-store.ts';

interface Row {
  id: string;
  account_id: string;
  target: WatchRow['target'];
  callback_url: string | null;
  transcripts: boolean;
  lang: string | null;
  interval_seconds: number;
  status: WatchRow['status'];
  paused_reason: string | null;
  failures: number;
  last_error: string | null;
  seen_video_ids: string[] | null;
  last_checked_at: Date | null;
  next_check_at: Date;
  created_at: Date;
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

const toWatch = (r: Row): WatchRow => ({
  id: r.id,
  accountId: r.account_id,
  target: r.target,
  intervalSeconds: r.interval_seconds,
  transcripts: r.transcripts,
  lang: r.lang,
  callbackUrl: r.callback_url,
  status: r.status,
  pausedReason: r.paused_reason,
  failures: r.failures,
  lastError: r.last_error,
  seenVideoIds: r.seen_video_ids,
  lastCheckedAt: iso(r.last_checked_at),
  nextCheckAt: r.next_check_at.toISOString(),
  createdAt: r.created_at.toISOString(),
});

export function createWatchRepository(sql: Sql): WatchStore {
  return { ...watchRegistry(sql), ...watchChecks(sql) };
}

function watchRegistry(sql: Sql): Pick<WatchStore, 'create' | 'get' | 'list' | 'history' | 'delete'> {
  return {
    create: (w, max) =>
      sql.begin(async (tx) => {
        // One creation at a time per account, so a flood of concurrent ones cannot all pass the count.
        await tx`select pg_advisory_xact_lock(hashtext('watch-create'), hashtext(${w.accountId}))`;
        const [n] = await tx<{ n: number }[]>`select count(*)::int as n from watches where account_id = ${w.accountId}`;
        if (n!.n >= max) return null;
        const [row] = await tx<Row[]>`
          insert into watches (id, account_id, target, callback_url, transcripts, lang, interval_seconds)
          values (${newId('wat')}, ${w.accountId}, ${tx.json(jsonValue(w.target))}, ${w.callbackUrl}, ${w.transcripts},
                  ${w.lang}, ${w.intervalSeconds})
          returning *`;
        return toWatch(row!);
      }),
    async get(accountId, id) {
      const [row] = await sql<Row[]>`select * from watches where id = ${id} and account_id = ${accountId}`;
      return row ? toWatch(row) : null;
    },
    async list(accountId) {
      const rows = await sql<
        Row[]
      >`select * from watches where account_id = ${accountId} order by created_at desc, id desc`;
      return rows.map(toWatch);
    },
    async history(watchId, limit) {
      const rows = await sql<
        {
          video_id: string;
          kind: WatchEvent['kind'];
          title: string | null;
          detail: string | null;
          credits_charged: number;
          created_at: Date;
        }[]
      >`select video_id, kind, title, detail, credits_charged, created_at from watch_events
        where watch_id = ${watchId} order by created_at desc, id desc limit ${limit}`;
      return rows.map((r) => ({
        videoId: r.video_id,
        kind: r.kind,
        title: r.title,
        detail: r.detail,
        creditsCharged: r.credits_charged,
        createdAt: r.created_at.toISOString(),
      }));
    },
    async delete(accountId, id) {
      const rows = await sql`delete from watches where id = ${id} and account_id = ${accountId} returning id`;
      return rows.length > 0;
    },
  };
}

function watchChecks(sql: Sql): Pick<WatchStore, 'claimDue' | 'checked' | 'failed' | 'recordEvent'> {
  return {
    async claimDue(limit) {
      const rows = await sql<Row[]>`
        update watches w set next_check_at = now() + make_interval(secs => w.interval_seconds)
        where w.id in (
          select id from watches where status = 'active' and next_check_at <= now()
          order by next_check_at limit ${limit} for update skip locked)
        returning w.*`;
      return rows.map(toWatch);
    },
    async checked(id, seen) {
      await sql`
        update watches set seen_video_ids = ${sql.json(seen)}, failures = 0, last_error = null, last_checked_at = now()
        where id = ${id}`;
    },
    async failed(id, error, maxFailures) {
      await sql`
        update watches set failures = failures + 1, last_error = ${error}, last_checked_at = now(),
          status = case when failures + 1 >= ${maxFailures} then 'paused' else status end,
          paused_reason = case when failures + 1 >= ${maxFailures}
            then ${`paused after ${maxFailures} failed check(s) in a row; last: `} || ${error} else paused_reason end
        where id = ${id}`;
    },
    async recordEvent(watchId, e) {
      const rows = await sql`
        insert into watch_events (id, watch_id, video_id, kind, title, detail, credits_charged)
        values (${newId('wev')}, ${watchId}, ${e.videoId}, ${e.kind}, ${e.title}, ${e.detail}, ${e.creditsCharged})
        on conflict (watch_id, video_id, kind) do nothing returning id`;
      return rows.length > 0;
    },
  };
}
