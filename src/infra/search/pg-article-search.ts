import type { TransactionSql } from 'postgres';
import type { Sql } from '../../../db/client.ts';
import { searchConfigFor } from '../../domain/articles/search-config.ts';
import type { ArticleHit, ArticleSearch } from '../../domain/articles/ports.ts';
import { phraseFilter } from './pg-search-phrase.ts';
import { countMatches, newestByDate, type PgSearchTuning, RANGE_SHARE } from './pg-search-by-date.ts';
import { COUNT_CAP, type Position, readPosition, writePosition } from './pg-search-position.ts';
import { afterKey, type Dated, type Fragment, keyText, lastKey, type Scope, type Step } from './pg-search-scope.ts';

export type { PgSearchTuning } from './pg-search-by-date.ts';

/**
 * Title matches are ranked by cover density on the title among the newest this many; older title matches follow,
 * newest first. A common word has thousands of title matches: ranking them all was most of its cost.
 */
export const TITLE_RANKED = 500;
/** When no more than this many matches lack the words in their title, they are ranked on the whole text too. */
const RANK_REST_UP_TO = 100;

type Row = Omit<ArticleHit, 'createdAt' | 'videoId'> & { video_id: string; created_at: Date; snippet: string | null };

/**
 * Full-text search over `article_search` (migration 0005), a narrow copy of each article's filters, date and vectors kept
 * in step by a trigger, so storing an article is indexing it. The query is always a bound parameter parsed by
 * websearch_to_tsquery, which accepts any text without syntax errors.
 *
 * Ranking, in tiers so that a common word never ranks every match: articles whose title matches the query come first,
 * ranked by cover density on the title (the newest TITLE_RANKED of them; older ones after, newest first); then the
 * others, ranked on the whole weighted text when there are few of them, newest first when there are many. Every tier
 * is a fixed order, so pages never repeat or skip an article. Counting stops at COUNT_CAP. A page ends at a position
 * (`next`): the tiers in date order continue from its date and id (the date indexes), never by skipping an offset.
 */
export function createPgArticleSearch(sql: Sql, tuning: PgSearchTuning = {}): ArticleSearch {
  return {
    async index() {
      // The trigger on articles indexes the row when the article is stored.
    },
    async search({ query, category, lang, page, limit, after, counted }) {
      const resumed = after ? readPosition(after) : undefined;
      const q = query?.trim() || null;
      // Without a language filter, match both unstemmed words and English stems (the common case).
      const config = lang ? searchConfigFor(lang) : 'english';
      const l = lang?.toLowerCase();
      const filters = sql`
        ${category ? sql`and s.category = ${category}` : sql``}
        ${l ? (l.includes('-') ? sql`and s.lang = ${l}` : sql`and s.lang_base = ${l}`) : sql``}`;
      // One snapshot for the count and every tier of the page: an article stored meanwhile is in all or none.
      return sql.begin('isolation level repeatable read read only', async (tx) => {
        // The planner cannot see that reading a vector means fetching it from TOAST: keep it on the indexes.
        // A plan for this query's words every time: from a statement's sixth run on a connection PostgreSQL may keep a
        // generic plan, made without the words (each guessed to match 500 rows) and parsing the query again for every
        // row it ranks: the title tier of `loka -lovek` then read both words' postings and took 30-60 ms, not 11.
        await tx.unsafe(
          'set local enable_seqscan = off; set local jit = off; set local plan_cache_mode = force_custom_plan',
        );
        const { tq } = await parsedQuery(sql, tx, q, config);
        const scope = await scopeOf(sql, tx, q, config, tq, filters, !!(category || l));
        scope.rangeShare = tuning.rangeShare ?? RANGE_SHARE;
        // A cursor carries the first page's count: deeper pages do not count again.
        scope.n = counted ? (counted.exact ? counted.total : COUNT_CAP + 1) : await countMatches(scope);
        const total = Math.min(scope.n, COUNT_CAP);
        const offset = (page - 1) * limit;
        const from: Position = resumed ?? {
          tier: q ? (offset < TITLE_RANKED ? 'head' : 'older') : 'newest',
          skip: offset,
        };
        const { ids, next } = !resumed && offset >= total ? { ids: [], next: null } : await walk(scope, from, limit);
        const results = await hitsInOrder(sql, tx, ids, q, config);
        return { total, totalExact: scope.n <= COUNT_CAP, page, limit, results, next: next && writePosition(next) };
      });
    },
  };
}

/**
 * The query parsed in the configuration and unstemmed, once, as a constant. When the two parse alike (no stem, no stop
 * word differs) it is one of them, not both or'ed: the same matches and the same ranks, each ranked in a third of the
 * time (the rank looks for every occurrence of each alternative's words).
 */
async function parsedQuery(sql: Sql, tx: TransactionSql, q: string | null, config: string) {
  if (!q) return { tq: sql`''::tsquery` }; // (no query: the newest articles, never matched)
  const [p] = await tx<{ tq: string }[]>`
    select (case when own = plain then own else own || plain end)::text as tq
    from (select websearch_to_tsquery(${config}::regconfig, ${q}) as own, websearch_to_tsquery('simple', ${q}) as plain) t`;
  return { tq: sql`${p!.tq}::tsquery` }; // wrapped: a fragment is a thenable
}

/** The query's fragments, with the match narrowed (or replaced) by the adjacent pairs of its quoted phrases. */
async function scopeOf(
  sql: Sql,
  tx: TransactionSql,
  q: string | null,
  config: string,
  tq: Fragment,
  filters: Fragment,
  filtered: boolean,
) {
  // (A fragment is a thenable: it travels wrapped, or awaiting it would run it.)
  const phrases = q ? await phraseFilter(sql, tx, q, config) : { and: null, exact: false, title: null };
  const matches = !q
    ? sql`true`
    : !phrases.and
      ? sql`s.search_vector @@ ${tq}`
      : phrases.exact
        ? phrases.and
        : sql`s.search_vector @@ ${tq} and ${phrases.and}`;
  // An excluded word may appear outside the title: then the title tier checks the whole match too.
  const excludes = !!q && /(^|\s)-\S/.test(q);
  const scope: Scope = {
    sql,
    tx,
    q,
    tq,
    filters,
    matches,
    // A phrase's title match from the title's pairs: the title index holds no positions, and for a phrase of common
    // words it yields a fifth of the table to re-read (a pair's article is never re-read: @> on the index is exact).
    inTitle: phrases.title
      ? sql`${phrases.title} ${filters}`
      : sql`s.title_vector @@ ${tq} ${excludes ? sql`and ${matches}` : sql``} ${filters}`,
    inRest: sql`${matches} and not (s.title_vector @@ ${tq}) ${filters}`,
    narrowedByPhrase: !!phrases.and,
    filtered,
    rangeShare: RANGE_SHARE,
    n: 0,
  };
  return scope;
}

const TIERS: Record<Position['tier'], (scope: Scope, at: Position, want: number) => Promise<Step>> = {
  newest: newestTier,
  head: headTier,
  older: olderTier,
  rest: restTier,
  ranked: rankedRestTier,
  dated: datedRestTier,
};

/** Fills a page tier after tier from `from`; `next` is where the page ended. */
async function walk(scope: Scope, from: Position, limit: number) {
  // The planner takes a phrase's title matches for as many as hold both words, and then walks the date index
  // through every article looking for them: a phrase's few title matches are found from the title index.
  if (scope.narrowedByPhrase) await scope.tx.unsafe('set local enable_indexscan = off');
  const ids: string[] = [];
  let at: Position | null = from;
  while (at && ids.length < limit) {
    const step: Step = await TIERS[at.tier](scope, at, limit - ids.length);
    ids.push(...step.ids);
    at = step.next;
  }
  return { ids, next: at };
}

/** No query: every article that passes the filters, newest first. */
async function newestTier({ sql, tx, filters }: Scope, at: Position, want: number): Promise<Step> {
  const rows = await tx<Dated[]>`
    select s.id, ${keyText(sql)} as at from article_search s where true ${filters} ${afterKey(sql, at.after)}
    order by s.created_at desc, s.id limit ${want} offset ${at.skip}`;
  return {
    ids: rows.map((r) => r.id),
    next: rows.length === want ? { tier: 'newest', after: lastKey(rows), skip: 0 } : null,
  };
}

/**
 * The newest TITLE_RANKED title matches, ranked by cover density on the title (a position in that ranking: ranking
 * them is the same work at any depth). After them, the older title matches from the oldest of them.
 */
async function headTier({ sql, tx, tq, inTitle }: Scope, at: Position, want: number): Promise<Step> {
  const rows = await tx<{ id: string; head: number; edge_at: string; edge_id: string }[]>`
    with recent as (
      select s.id, s.created_at, s.title_vector, ${keyText(sql)} as at from article_search s where ${inTitle}
      order by s.created_at desc, s.id limit ${TITLE_RANKED}),
    edge as (select at, id from recent order by created_at, id desc limit 1)
    select r.id, count(*) over ()::int as head, e.at as edge_at, e.id as edge_id from recent r, edge e
    order by ts_rank_cd(r.title_vector, ${tq}) desc, r.created_at desc, r.id
    limit ${want} offset ${at.skip}`;
  const ids = rows.map((r) => r.id);
  // Past the end of the ranking (a page asked for by number): the older ones count from the newest title match.
  if (!rows.length) return { ids, next: { tier: 'older', skip: at.skip } };
  const skip = at.skip + rows.length;
  const { head, edge_at, edge_id } = rows[0]!;
  if (skip < head) return { ids, next: { tier: 'head', skip } };
  return {
    ids,
    next: head < TITLE_RANKED ? { tier: 'rest', skip: 0 } : { tier: 'older', after: [edge_at, edge_id], skip: 0 },
  };
}

/** Title matches older than the ranked ones, newest first (the date index, stopping at the page). */
async function olderTier({ sql, tx, inTitle }: Scope, at: Position, want: number): Promise<Step> {
  const rows = await tx<Dated[]>`
    select s.id, ${keyText(sql)} as at from article_search s where ${inTitle} ${afterKey(sql, at.after)}
    order by s.created_at desc, s.id limit ${want} offset ${at.skip}`;
  const ids = rows.map((r) => r.id);
  if (rows.length === want) return { ids, next: { tier: 'older', after: lastKey(rows), skip: 0 } };
  // The title matches ran out. A page past them (asked for by number) skips what is left of its offset in the rest.
  let skip = 0;
  if (!rows.length && at.skip > 0) {
    const [c] = await tx<{ n: number }[]>`
      select count(*)::int as n from article_search s where ${inTitle} ${afterKey(sql, at.after)}`;
    skip = Math.max(0, at.skip - c!.n);
  }
  return { ids, next: { tier: 'rest', skip } };
}

/** The matches whose title does not match: ranked on the whole text when few, else newest first. */
async function restTier(scope: Scope, at: Position, want: number): Promise<Step> {
  const { tx, inRest, n } = scope;
  let ranked = false;
  if (n <= COUNT_CAP) {
    const [c] = await tx<{ n: number }[]>`
      select count(*)::int as n from (select 1 from article_search s where ${inRest} limit ${RANK_REST_UP_TO + 1}) m`;
    ranked = c!.n <= RANK_REST_UP_TO;
  }
  return (ranked ? rankedRestTier : datedRestTier)(scope, { ...at, tier: ranked ? 'ranked' : 'dated' }, want);
}

/** Few matches outside titles: ranked on the whole weighted text (each means reading its whole vector). */
async function rankedRestTier({ tx, tq, inRest }: Scope, at: Position, want: number): Promise<Step> {
  // A bitmap of the matches and a sort, not the date index with every vector read on the way.
  await tx.unsafe('set local enable_indexscan = off');
  const rows = await tx<{ id: string }[]>`
    select s.id from article_search s where ${inRest}
    order by ts_rank_cd(s.search_vector, ${tq}) desc, s.created_at desc, s.id limit ${want} offset ${at.skip}`;
  const ids = rows.map((r) => r.id);
  return { ids, next: rows.length === want ? { tier: 'ranked', skip: at.skip + rows.length } : null };
}

/** Many matches outside titles: newest first. */
async function datedRestTier(scope: Scope, at: Position, want: number): Promise<Step> {
  const { sql, filters, inRest } = scope;
  const rows = await newestByDate(scope, { among: sql`true ${filters}`, exact: inRest, share: 0.25 }, at, want);
  const ids = rows.map((r) => r.id);
  return { ids, next: rows.length === want ? { tier: 'dated', after: lastKey(rows), skip: 0 } : null };
}

/** The articles behind `ids`, in that order, with a snippet of the summary around the query's words. */
async function hitsInOrder(sql: Sql, tx: TransactionSql, ids: string[], q: string | null, config: string) {
  if (!ids.length) return [];
  const rows = await tx<Row[]>`
    select a.id, a.video_id, a.title, a.summary, a.lang, a.category, a.tags, a.created_at,
           ${q ? sql`ts_headline(${config}::regconfig, a.summary, websearch_to_tsquery(${config}::regconfig, ${q}), 'MaxFragments=1, MaxWords=30, MinWords=10')` : sql`null`} as snippet
    from articles a where a.id = any(${ids})`;
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id): ArticleHit[] => {
    const r = byId.get(id);
    if (!r) return [];
    return [
      {
        id: r.id,
        videoId: r.video_id,
        title: r.title,
        summary: r.summary,
        lang: r.lang,
        category: r.category,
        tags: r.tags,
        createdAt: r.created_at.toISOString(),
        ...(r.snippet ? { snippet: r.snippet } : {}),
      },
    ];
  });
}
