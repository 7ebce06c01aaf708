import type { Sql } from '../../../db/client.ts';
import type { ScrapeSources } from './metrics.ts';

/** Reuse one answer for the series of one scrape (several gauges read the same rows). */
function briefly<T>(ms: number, read: () => Promise<T>): () => Promise<T> {
  let last: { at: number; value: Promise<T> } | undefined;
  return () => {
    if (!last || Date.now() - last.at > ms) last = { at: Date.now(), value: read() };
    return last.value;
  };
}

/** The cluster-wide facts /metrics reads from PostgreSQL at scrape time. */
export function metricQueries(sql: Sql): ScrapeSources['query'] {
  return {
    // Only unfinished jobs (finished ones accumulate until pg-boss deletes them; subtext_jobs_total counts those),
    // and every queue x state even when zero, so an empty queue shows as 0 rather than as no series.
    queueJobs: briefly(1000, async () =>
      (
        await sql<{ queue: string; state: string; count: number; oldest: number | null }[]>`
          select q.name as queue, s.state, count(j.id)::int as count,
                 extract(epoch from now() - min(j.created_on))::float8 as oldest
          from pgboss.queue q
          cross join unnest(array['created', 'retry', 'active']) as s(state)
          left join pgboss.job j on j.name = q.name and j.state::text = s.state
          group by q.name, s.state`
      ).map((r) => ({ queue: r.queue, state: r.state, count: r.count, oldestSeconds: r.oldest })),
    ),
    credits: briefly(
      1000,
      async () =>
        sql<{ operation: string; charged: number; refunded: number }[]>`
        select operation,
               coalesce(sum(-delta) filter (where kind = 'charge'), 0)::float8 as charged,
               coalesce(sum(delta) filter (where kind = 'refund'), 0)::float8 as refunded
        from credit_ledger where kind in ('charge', 'refund') group by operation`,
    ),
    connections: async () =>
      sql<{ state: string; count: number }[]>`
        select coalesce(state, 'unknown') as state, count(*)::int as count
        from pg_stat_activity where datname = current_database() group by 1`,
  };
}
