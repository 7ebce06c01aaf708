// Residential egress bytes per clock hour, identity and purpose, shared by every instance. A reservation checks the
// hour's and the UTC day's totals and adds what it takes in one transaction under an advisory lock, so two instances
// can never both take the last bytes of a budget.
import type { Sql } from '../../../db/client.ts';
import type {
  ResidentialLimits,
  ResidentialSpend,
  ResidentialStore,
  ResidentialUsage,
} from '../../domain/youtube/residential-budget.ts';

/** The advisory lock every reservation takes (one budget for the cluster). */
const LOCK = 0x7974_7265; // "ytre"

export function createResidentialStore(sql: Sql): ResidentialStore {
  return {
    async reserve(identity, purpose, wanted, limits: ResidentialLimits) {
      return sql.begin(async (tx) => {
        await tx`select pg_advisory_xact_lock(${LOCK})`;
        const spend = await spendOf(tx as unknown as Sql);
        const left = Math.min(limits.perHour - spend.hour, limits.perDay - spend.day);
        const reserved = left >= wanted.least ? Math.min(wanted.most, left) : 0;
        if (reserved > 0) await addBytes(tx as unknown as Sql, identity, purpose, reserved);
        return { reserved, spend };
      });
    },
    add: (identity, purpose, bytes) => addBytes(sql, identity, purpose, bytes),
    async usage(): Promise<ResidentialUsage[]> {
      const rows = await sql<{ identity: string; purpose: string; hour: string; day: string }[]>`
        select identity, purpose,
          coalesce(sum(bytes) filter (where hour = date_trunc('hour', now())), 0)::text as hour,
          sum(bytes)::text as day
        from youtube_residential_bytes
        where hour >= date_trunc('day', now() at time zone 'UTC') at time zone 'UTC'
        group by identity, purpose order by identity, purpose`;
      return rows.map((r) => ({ identity: r.identity, purpose: r.purpose, hour: Number(r.hour), day: Number(r.day) }));
    },
    spend: () => spendOf(sql),
  };
}

async function addBytes(sql: Sql, identity: string, purpose: string, bytes: number): Promise<void> {
  if (bytes === 0) return;
  await sql`
    insert into youtube_residential_bytes (hour, identity, purpose, bytes)
    values (date_trunc('hour', now()), ${identity}, ${purpose}, ${bytes})
    on conflict (hour, identity, purpose) do update set bytes = youtube_residential_bytes.bytes + excluded.bytes`;
}

async function spendOf(sql: Sql): Promise<ResidentialSpend> {
  const [row] = await sql<{ hour: string; day: string; hour_ends: number; day_ends: number }[]>`
    with day as (select date_trunc('day', now() at time zone 'UTC') at time zone 'UTC' as start)
    select
      coalesce(sum(bytes) filter (where hour = date_trunc('hour', now())), 0)::text as hour,
      coalesce(sum(bytes), 0)::text as day,
      ceil(extract(epoch from date_trunc('hour', now()) + interval '1 hour' - now()))::int as hour_ends,
      ceil(extract(epoch from (select start from day) + interval '1 day' - now()))::int as day_ends
    from youtube_residential_bytes where hour >= (select start from day)`;
  return {
    hour: Number(row!.hour),
    day: Number(row!.day),
    hourEndsIn: row!.hour_ends,
    dayEndsIn: row!.day_ends,
  };
}
