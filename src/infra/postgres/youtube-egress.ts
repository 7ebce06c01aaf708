// Egress identities' budgets and cool-downs, and what each YouTube attempt came to: shared by every instance.
// Each change is one statement, so two instances never spend the same request twice or lose a strike.
import type { Sql } from '../../../db/client.ts';
import type {
  EgressStore,
  IdentityState,
  Outcome,
  OutcomeCount,
  OutcomeKind,
  Purpose,
} from '../../domain/youtube/egress.ts';

/** Hour rows kept for `youtube status`; older ones are deleted, at most once an hour per process. */
const KEEP_DAYS = 14;

export function createEgressStore(sql: Sql): EgressStore {
  const ensure = identityRows(sql);
  return { ...identityBudgets(sql, ensure), ...identityStates(sql, ensure), ...attemptOutcomes(sql) };
}

type EnsureRows = (ids: string[]) => Promise<void>;

/** Inserts the rows of identities this process has not seen yet. */
function identityRows(sql: Sql): EnsureRows {
  const known = new Set<string>();
  return async (ids: string[]) => {
    const missing = ids.filter((id) => !known.has(id));
    if (missing.length === 0) return;
    await sql`insert into youtube_identities (id) select unnest(${missing}::text[]) on conflict do nothing`;
    for (const id of missing) known.add(id);
  };
}

function identityBudgets(sql: Sql, ensure: EnsureRows): Pick<EgressStore, 'take' | 'cool' | 'served'> {
  return {
    async take(ids, budget) {
      await ensure(ids);
      // A window older than an hour has ended: the identity starts a new one with this request. Among usable
      // identities the least used goes first, so traffic spreads over every proxy.
      const [row] = await sql<{ id: string }[]>`
        with pick as (
          select id from youtube_identities
          where id = any(${ids}::text[])
            and (cooling_until is null or cooling_until <= now())
            and (window_start is null or window_start <= now() - interval '1 hour' or used < ${budget})
          order by case when window_start is null or window_start <= now() - interval '1 hour' then 0 else used end, id
          limit 1
          for update
        )
        update youtube_identities y set
          used = case when y.window_start is null or y.window_start <= now() - interval '1 hour' then 1 else y.used + 1 end,
          window_start = case when y.window_start is null or y.window_start <= now() - interval '1 hour' then now() else y.window_start end,
          updated_at = now()
        from pick
        where y.id = pick.id
          and (y.cooling_until is null or y.cooling_until <= now())
          and (y.window_start is null or y.window_start <= now() - interval '1 hour' or y.used < ${budget})
        returning y.id`;
      return row?.id ?? null;
    },
    async cool(id, reason, base, max) {
      await sql`
        update youtube_identities set
          strikes = strikes + 1,
          cooling_until = now() + make_interval(secs => least(${max}::float8, ${base}::float8 * power(2, strikes))),
          last_reason = ${reason.slice(0, 300)},
          updated_at = now()
        where id = ${id}`;
    },
    async served(id) {
      await sql`update youtube_identities set strikes = 0, updated_at = now() where id = ${id} and strikes <> 0`;
    },
  };
}

function identityStates(sql: Sql, ensure: EnsureRows): Pick<EgressStore, 'states'> {
  return {
    async states(ids) {
      await ensure(ids);
      const rows = await sql<
        {
          id: string;
          used: number;
          window_ends: Date | null;
          cooling_until: Date | null;
          strikes: number;
          last_reason: string | null;
        }[]
      >`
        select id,
               case when window_start > now() - interval '1 hour' then used else 0 end as used,
               case when window_start > now() - interval '1 hour' then window_start + interval '1 hour' end as window_ends,
               case when cooling_until > now() then cooling_until end as cooling_until,
               strikes, last_reason
        from youtube_identities where id = any(${ids}::text[]) order by id`;
      return rows.map(
        (r): IdentityState => ({
          id: r.id,
          used: r.used,
          windowEndsAt: r.window_ends,
          coolingUntil: r.cooling_until,
          strikes: r.strikes,
          lastReason: r.last_reason,
        }),
      );
    },
  };
}

function attemptOutcomes(sql: Sql): Pick<EgressStore, 'record' | 'counts'> {
  let prunedAt = 0;
  return {
    async record(o: Outcome) {
      await sql`
        insert into youtube_outcomes (hour, client, purpose, identity, kind, count)
        values (date_trunc('hour', now()), ${o.client}, ${o.purpose}, ${o.identity}, ${o.kind}, 1)
        on conflict (hour, client, purpose, identity, kind) do update set count = youtube_outcomes.count + 1`;
      if (Date.now() - prunedAt > 3_600_000) {
        prunedAt = Date.now();
        await sql`delete from youtube_outcomes where hour < now() - make_interval(days => ${KEEP_DAYS})`;
      }
    },
    async counts(since) {
      const rows = await sql<{ client: string; purpose: string; identity: string; kind: string; count: number }[]>`
        select client, purpose, identity, kind, sum(count)::float8 as count
        from youtube_outcomes where hour >= date_trunc('hour', ${since}::timestamptz)
        group by client, purpose, identity, kind order by client, purpose, identity, kind`;
      return rows.map(
        (r): OutcomeCount => ({
          client: r.client,
          purpose: r.purpose as Purpose,
          identity: r.identity,
          kind: r.kind as OutcomeKind,
          count: r.count,
        }),
      );
    },
  };
}
