import type { Sql } from '../../../db/client.ts';
import { newId } from '../../domain/ids.ts';
import { jsonValue } from './json-value.ts';
import { insertDelivery } from './webhooks.ts';
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

function watchChecks(sql: Sql): Pick<WatchStore, 'claimDue' | 'record' | 'pendingTranscripts' | 'failed'> {
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
    record: (id, events, seen) =>
      sql.begin(async (tx) => {
        // Locks the watch (two checkers of one watch record one after the other), and finds a deleted one.
        const [w] = seen
          ? await tx`update watches set seen_video_ids = ${tx.json(seen)}, failures = 0, last_error = null,
              last_checked_at = now() where id = ${id} returning id`
          : await tx`select id from watches where id = ${id} for update`;
        if (!w) return [];
        const deliveries: string[] = [];
        for (const e of events) {
          const [fresh] = await tx`
            insert into watch_events (id, watch_id, video_id, kind, title, detail, credits_charged)
            values (${newId('wev')}, ${id}, ${e.videoId}, ${e.kind}, ${e.title}, ${e.detail}, ${e.creditsCharged})
            on conflict (watch_id, video_id, kind) do nothing returning id`;
          if (fresh && e.delivery) deliveries.push(await insertDelivery(tx, e.delivery));
        }
        return deliveries;
      }),
    async pendingTranscripts(watchId, limit) {
      const rows = await sql<{ video_id: string; title: string | null }[]>`
        select p.video_id, p.title from watch_events p
        where p.watch_id = ${watchId} and p.kind = 'video_published'
          and not exists (select 1 from watch_events s where s.watch_id = p.watch_id and s.video_id = p.video_id
                          and s.kind <> 'video_published')
        order by p.created_at, p.id limit ${limit}`;
      return rows.map((r) => ({ videoId: r.video_id, title: r.title }));
    },
    async failed(id, error, maxFailures, counted) {
      const add = counted ? 1 : 0;
      await sql`
        update watches set failures = failures + ${add}, last_error = ${error}, last_checked_at = now(),
          status = case when ${counted} and failures + 1 >= ${maxFailures} then 'paused' else status end,
          paused_reason = case when ${counted} and failures + 1 >= ${maxFailures}
            then ${`paused after ${maxFailures} failed check(s) in a row; last: `} || ${error} else paused_reason end
        where id = ${id}`;
    },
  };
}
