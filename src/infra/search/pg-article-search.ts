import type { PendingQuery, Row as PgRow, TransactionSql } from 'postgres';
import type { Sql } from '../../../db/client.ts';
import { searchConfigFor } from '../../domain/articles/search-config.ts';
import type { ArticleHit, ArticleSearch } from '../../domain/articles/search-port.ts';

/** Matches are counted up to this many (page * limit never reaches further); past it the total is a lower bound. */
export const COUNT_CAP = 10_000;
/**
 * Title matches are ranked by cover density on the title among the newest this many; older title matches follow,
 * newest first. A common word has thousands of title matches: ranking them all was most of its cost.
 */
export const TITLE_RANKED = 500;
/** When no more than this many matches lack the words in their title, they are ranked on the whole text too. */
const RANK_REST_UP_TO = 100;

/**
 * The quoted phrases a query requires (not excluded with `-"..."`, not in an `or`), as the adjacent word pairs each
 * article lists (migration 0012), in the query's configuration and unstemmed, as the query itself matches both:
 * an article holding a phrase holds its pairs in one of the two. Empty when that cannot narrow anything.
 *
 * `exact` when the query is nothing but two-word phrases (one pair each, in both configurations): holding the pair is
 * then the phrase match itself, and no article's vector need be read to check positions.
 */
async function phraseFilter(sql: Sql, tx: TransactionSql, q: string, config: string) {
  const none = { and: null, exact: false };
  if (/(^|\s)or(\s|$)/i.test(q)) return none;
  const found = [...q.matchAll(/(?:^|\s)"([^"]+)"/g)];
  if (!found.length) return none;
  const rows = await tx<{ own: string[]; plain: string[] }[]>`
    select article_word_pairs(to_tsvector(${config}::regconfig, ph)) as own, article_word_pairs(to_tsvector('simple', ph)) as plain
    from unnest(${found.map((m) => m[1]!)}::text[]) ph`;
  const own = [...new Set(rows.flatMap((r) => r.own))];
  const plain = [...new Set(rows.flatMap((r) => r.plain))];
  // A phrase of stop words and one word has no pair in the configuration: then nothing narrows.
  if (!own.length || !plain.length) return none;
  const onlyPhrases = found.reduce((rest, m) => rest.replace(m[0], ' '), q).trim() === '';
  return {
    and: sql`(s.pairs @> ${own}::text[] or s.pairs @> ${plain}::text[])`,
    exact: onlyPhrases && rows.every((r) => r.own.length === 1 && r.plain.length === 1),
  };
}

type Row = Omit<ArticleHit, 'createdAt' | 'videoId'> & { video_id: string; created_at: Date; snippet: string | null };
/** A piece of SQL built with `sql` and spliced into another query. */
type Fragment = PendingQuery<PgRow[]>;

/** What every tier of one search reads: the snapshot, the query's fragments and the page asked for. */
interface Scope {
  sql: Sql;
  tx: TransactionSql;
  /** The query text (absent: the newest articles). */
  q: string | null;
  /** The query parsed in the chosen configuration and unstemmed. */
  tq: Fragment;
  /** The category and language filters, each an `and ...` clause. */
  filters: Fragment;
  /** What an article must hold to match (the vector, or the phrase pairs when they are the phrase match). */
  matches: Fragment;
  narrowedByPhrase: boolean;
  offset: number;
  limit: number;
  /** Matches counted, up to COUNT_CAP + 1. */
  n: number;
}

/**
 * Full-text search over `article_search` (migration 0005), a narrow copy of each article's filters, date and vectors kept
 * in step by a trigger, so storing an article is indexing it. The query is always a bound parameter parsed by
 * websearch_to_tsquery, which accepts any text without syntax errors.
 *
 * Ranking, in tiers so that a common word never ranks every match: articles whose title matches the query come first,
 * ranked by cover density on the title (the newest TITLE_RANKED of them; older ones after, newest first); then the
 * others, ranked on the whole weighted text when there are few of them, newest first when there are many. Every tier
 * is a fixed order, so pages never repeat or skip an article. Counting stops at COUNT_CAP.
 */
export function createPgArticleSearch(sql: Sql): ArticleSearch {
  return {
    async index() {
      // The trigger on articles indexes the row when the article is stored.
    },
    async search({ query, category, lang, page, limit }) {
      const q = query?.trim() || null;
      // Without a language filter, match both unstemmed words and English stems (the common case).
      const config = lang ? searchConfigFor(lang) : 'english';
      const l = lang?.toLowerCase();
      const filters = sql`
        ${category ? sql`and s.category = ${category}` : sql``}
        ${l ? (l.includes('-') ? sql`and s.lang = ${l}` : sql`and s.lang_base = ${l}`) : sql``}`;
      const tq = sql`(websearch_to_tsquery(${config}::regconfig, ${q ?? ''}) || websearch_to_tsquery('simple', ${q ?? ''}))`;

      // One snapshot for the count and every tier of the page: an article stored meanwhile is in all or none.
      return sql.begin('isolation level repeatable read read only', async (tx) => {
        // The planner cannot see that reading a vector means fetching it from TOAST: keep it on the indexes.
        await tx.unsafe('set local enable_seqscan = off; set local jit = off');
        const { matches, narrowedByPhrase } = await matchClause(sql, tx, q, config, tq);
        const [counted] = await tx<{ n: number }[]>`
          select count(*)::int as n from (select 1 from article_search s where ${matches} ${filters} limit ${COUNT_CAP + 1}) m`;
        const n = counted!.n;
        const total = Math.min(n, COUNT_CAP);
        const offset = (page - 1) * limit;
        const scope: Scope = { sql, tx, q, tq, filters, matches, narrowedByPhrase, offset, limit, n };
        const ids = offset >= total ? [] : q ? await matchingPage(scope) : await newestPage(scope);
        const results = await hitsInOrder(sql, tx, ids, q, config);
        return { total, totalExact: n <= COUNT_CAP, page, limit, results };
      });
    },
  };
}

/** The condition a match meets: the vector, narrowed (or replaced) by the adjacent pairs of its quoted phrases. */
async function matchClause(sql: Sql, tx: TransactionSql, q: string | null, config: string, tq: Fragment) {
  if (!q) return { matches: sql`true`, narrowedByPhrase: false };
  // (A fragment is a thenable: it travels wrapped, or awaiting it would run it.)
  const phrases = await phraseFilter(sql, tx, q, config);
  if (!phrases.and) return { matches: sql`s.search_vector @@ ${tq}`, narrowedByPhrase: false };
  const matches = phrases.exact ? phrases.and : sql`s.search_vector @@ ${tq} and ${phrases.and}`;
  return { matches, narrowedByPhrase: true };
}

/** No query: every article that passes the filters, newest first. */
async function newestPage({ tx, filters, offset, limit }: Scope): Promise<string[]> {
  const rows = await tx<{ id: string }[]>`
    select s.id from article_search s where true ${filters}
    order by s.created_at desc, s.id limit ${limit} offset ${offset}`;
  return rows.map((r) => r.id);
}

/** A page of matches: the title tiers first, then the rest of the matches. */
async function matchingPage(scope: Scope): Promise<string[]> {
  const { sql, tx, q, tq, matches, filters, limit } = scope;
  // An excluded word may appear outside the title: then the title tier checks the whole vector too.
  const excludes = /(^|\s)-\S/.test(q!);
  const inTitle = sql`s.title_vector @@ ${tq} ${excludes ? sql`and ${matches}` : sql``} ${filters}`;
  // The planner takes a phrase's title matches for as many as hold both words, and then walks the date index
  // through every article looking for them: a phrase's few title matches are found from the title index.
  if (scope.narrowedByPhrase) await tx.unsafe('set local enable_indexscan = off');
  const { ids, headCount } = await titlePage(scope, inTitle);
  if (ids.length < limit) ids.push(...(await restPage(scope, inTitle, ids.length, headCount)));
  return ids;
}

/**
 * The page's title matches: the newest TITLE_RANKED ranked by cover density on the title, then older ones newest first.
 * `headCount` is the number of title matches when the page shows it without counting them.
 */
async function titlePage({ tx, tq, offset, limit }: Scope, inTitle: Fragment) {
  const ids: string[] = [];
  let headCount: number | undefined;
  if (offset < TITLE_RANKED) {
    const head = await tx<{ id: string; head: number }[]>`
      with recent as (
        select s.id, s.created_at, s.title_vector from article_search s where ${inTitle}
        order by s.created_at desc, s.id limit ${TITLE_RANKED})
      select id, count(*) over ()::int as head from recent
      order by ts_rank_cd(title_vector, ${tq}) desc, created_at desc, id
      limit ${Math.min(limit, TITLE_RANKED - offset)} offset ${offset}`;
    ids.push(...head.map((r) => r.id));
    if (head.length && head[0]!.head < TITLE_RANKED) headCount = head[0]!.head;
  }
  if (ids.length < limit && headCount === undefined) {
    // Past the ranked ones: the older title matches, newest first (the date index, stopping at the page).
    const from = offset + ids.length;
    const older = await tx<{ id: string }[]>`
      select s.id from article_search s where ${inTitle}
      order by s.created_at desc, s.id limit ${limit - ids.length} offset ${from}`;
    ids.push(...older.map((r) => r.id));
    if (ids.length < limit && older.length) headCount = from + older.length;
  }
  return { ids, headCount };
}

/** The matches whose title does not match, filling the page after `taken` title matches. */
async function restPage(scope: Scope, inTitle: Fragment, taken: number, known: number | undefined) {
  const { sql, tx, tq, matches, filters, offset, limit, n } = scope;
  // A page past the last title match has no row to tell how many there are: count them.
  const headCount =
    known ?? (await tx<{ n: number }[]>`select count(*)::int as n from article_search s where ${inTitle}`)[0]!.n;
  const rest: RestPage = {
    where: sql`${matches} and not (s.title_vector @@ ${tq}) ${filters}`,
    offset: Math.max(0, offset - headCount),
    want: limit - taken,
  };
  const found = n > COUNT_CAP ? await newestRestByDate(scope, rest) : undefined;
  // A bitmap of the matches and a sort, not the date index with every vector read on the way.
  await tx.unsafe('set local enable_indexscan = off');
  const rankRest = n <= COUNT_CAP && n - headCount <= RANK_REST_UP_TO;
  const rows =
    found ??
    (await tx<{ id: string }[]>`
      select s.id from article_search s where ${rest.where}
      order by ${rankRest ? sql`ts_rank_cd(s.search_vector, ${tq}) desc,` : sql``} s.created_at desc, s.id
      limit ${rest.want} offset ${rest.offset}`);
  return rows.map((r) => r.id);
}

interface RestPage {
  where: Fragment;
  offset: number;
  want: number;
}

/**
 * Newest first over more than COUNT_CAP matches: sorting them all (tens of thousands for a common word) was most of a
 * deep page. The page lies among the newest articles: look only at those after the date of the m-th newest (the date
 * index), widening (by the share of matches seen) until the page is full there or nothing older is left. Everything
 * outside is older than everything inside: the same page. Undefined when the widening gave up.
 */
async function newestRestByDate({ tx, filters }: Scope, rest: RestPage) {
  // The page among the matches since a date, after a first row that counts them all (to widen by).
  const since = (at: string) => tx<{ id: string | null; n: number }[]>`
    with r as materialized (
      select s.id, s.created_at from article_search s where ${rest.where} and s.created_at >= ${at}::timestamptz)
    select null as id, count(*)::int as n from r
    union all
    (select id, 0 from r order by created_at desc, id limit ${rest.want} offset ${rest.offset})`;
  for (let m = 4 * (rest.offset + rest.want), tries = 0; tries < 4; tries++) {
    await tx.unsafe('set local enable_indexscan = on');
    const [edge] = await tx<{ at: string }[]>`
      select at::text from (select s.created_at as at from article_search s where true ${filters}
      order by s.created_at desc, s.id offset ${m - 1} limit 1) e`;
    if (!edge) return undefined;
    await tx.unsafe('set local enable_indexscan = off');
    const rows = await since(edge.at);
    // SQL does not promise the union's order: the count is the row without an id.
    const count = rows.find((r) => r.id === null)!.n;
    const found = rows.filter((r): r is { id: string; n: number } => r.id !== null);
    if (found.length === rest.want) return found;
    m = count ? Math.ceil((m * 1.5 * (rest.offset + rest.want)) / count) : m * 4;
  }
  return undefined;
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
