// The count of a search's matches and its pages in date order, both found among the newest articles when that is
// cheaper than reading every match.
import { COUNT_CAP, type Key, type Position } from './pg-search-position.ts';
import { afterKey, afterKeyUnindexed, type Dated, type Fragment, keyText, type Scope } from './pg-search-scope.ts';

/** The share of matches among this many newest articles tells how far back more than COUNT_CAP of them lie. */
const SAMPLED = 2_000;
/** Looking among more than this share of the table's articles costs more than counting every match. */
export const RANGE_SHARE = 1 / 8;
/** Tuning a test may change (a table of a million articles is out of its reach). */
export interface PgSearchTuning {
  /** Count among the newest articles only when that is at most this share of the table (default 1/8). */
  rangeShare?: number;
}
/** Enough newest articles to hold COUNT_CAP + 1 matches with some room for a sample that was too dense. */
const rangeFor = (share: number) => Math.ceil((1.3 * (COUNT_CAP + 1)) / share);

/**
 * Matches counted up to COUNT_CAP + 1. Counting reads the posting lists of every word (a bitmap of them all: for a
 * common word, and more for an excluded one, most of the table), which grows with the table. In a large table, when
 * the newest SAMPLED articles show the matches are dense, more than COUNT_CAP of them found among the newest articles
 * (the match index holds the date) settles the count. Otherwise every match is counted: in a small table, with a
 * filter (its own date index may not be the one walked), for a phrase (found through its pairs' index, without the
 * date), or when the matches are too sparse among the newest.
 */
export async function countMatches(scope: Scope) {
  const { sql, tx, q, matches, filters, narrowedByPhrase, filtered, rangeShare } = scope;
  // Through the match index, never the date index with each vector read (the tiers after walk the date index).
  const within = async (edge: string | null, cap: number) => {
    if (edge !== null) await tx.unsafe('set local enable_indexscan = off');
    const [c] = await tx<{ n: number }[]>`
      select count(*)::int as n from (select 1 from article_search s where ${matches} ${filters}
        ${edge === null ? sql`` : sql`and s.created_at >= ${edge}::timestamptz`} limit ${cap}) m`;
    if (edge !== null) await tx.unsafe('set local enable_indexscan = on');
    return c!.n;
  };
  if (q && !narrowedByPhrase && !filtered) {
    const [t] = await tx<{ rows: number }[]>`
      select reltuples::float8 as rows from pg_class where oid = 'article_search'::regclass`;
    const most = t!.rows * rangeShare;
    const sampleEdge = rangeFor(1) <= most ? await dateOfNth(scope, sql`true`, undefined, SAMPLED) : undefined;
    if (sampleEdge) {
      const share = (await within(sampleEdge, SAMPLED)) / SAMPLED;
      const edge =
        share > 0 && rangeFor(share) <= most
          ? await dateOfNth(scope, sql`true`, undefined, rangeFor(share))
          : undefined;
      if (edge) {
        const n = await within(edge, COUNT_CAP + 1);
        if (n > COUNT_CAP) return n;
      }
    }
  }
  return within(null, COUNT_CAP + 1);
}

/** The date of the m-th newest row of `among` after `key`, as text (undefined when fewer). */
async function dateOfNth({ sql, tx }: Scope, among: Fragment, key: Key | undefined, m: number) {
  // The date index, stopping at the m-th: not every row read and sorted, as the planner chooses when m reaches
  // about as many rows as it thinks the table has.
  await tx.unsafe('set local enable_indexscan = on; set local enable_sort = off');
  const [edge] = await tx<{ at: string }[]>`
    select at::text from (select s.created_at as at from article_search s where ${among} ${afterKey(sql, key)}
    order by s.created_at desc, s.id offset ${m - 1} limit 1) e`;
  await tx.unsafe('set local enable_sort = on');
  return edge?.at;
}

/** Rows that hold `exact`, found by date among the rows of `among`, of which about `share` hold `exact`. */
interface ByDate {
  among: Fragment;
  exact: Fragment;
  share: number;
}

/**
 * A page of the rows that hold `exact`, newest first from the position, without reading or sorting them all (thousands
 * for a common word, and a check of each that may read its out-of-line vector). The page lies among the newest rows
 * of `among` (a superset of `exact` that the date indexes walk cheaply) after the position: look only at rows after
 * the date of the m-th of those (the match index holds the date), widening m by the share of them that held `exact`
 * until the page is full there. Everything outside is older than everything inside: the same page. When nothing older
 * is left, or the widening gives up, the page comes from every row that holds `exact`.
 */
export async function newestByDate(
  scope: Scope,
  { among, exact, share }: ByDate,
  at: Position,
  want: number,
): Promise<Dated[]> {
  const { sql, tx } = scope;
  const after = afterKeyUnindexed(sql, at.after);
  // The page among the rows since a date (all of them without one), after a first row that counts them (to widen by).
  const since = async (edge: string | null) => {
    await tx.unsafe('set local enable_indexscan = off');
    const rows = await tx<{ id: string | null; at: string; n: number }[]>`
      with r as materialized (
        select s.id, s.created_at, ${keyText(sql)} as at from article_search s
        where ${exact} ${after} ${edge === null ? sql`` : sql`and s.created_at >= ${edge}::timestamptz`})
      select null as id, '' as at, count(*)::int as n from r
      union all
      (select id, at, 0 from r order by created_at desc, id limit ${want} offset ${at.skip})`;
    // SQL does not promise the union's order: the count is the row without an id.
    return {
      count: rows.find((r) => r.id === null)!.n,
      found: rows.filter((r): r is Dated & { n: number } => r.id !== null),
    };
  };
  for (let m = Math.ceil((at.skip + want) / share), tries = 0; tries < 4; tries++) {
    const edge = await dateOfNth(scope, among, at.after, m);
    if (!edge) break;
    const { count, found } = await since(edge);
    if (found.length === want) return found;
    m = count ? Math.ceil((m * 1.5 * (at.skip + want)) / count) : m * 4;
  }
  return (await since(null)).found;
}
