import type { Sql } from '../../../db/client.ts';
import { searchConfigFor } from '../../domain/articles/search-config.ts';
import type { ArticleHit, ArticleSearch } from '../../domain/articles/search-port.ts';

/**
 * Full-text search on the articles table itself: the weighted tsvector is a generated column
 * with a GIN index, so storing an article is indexing it. The query is always a bound parameter
 * parsed by websearch_to_tsquery, which accepts any text without syntax errors.
 */
export function createPgArticleSearch(sql: Sql): ArticleSearch {
  return {
    async index() {
      // The generated column indexes the row when the article is stored.
    },
    async search({ query, category, lang, page, limit }) {
      const q = query?.trim() || null;
      // Without a language filter, match both unstemmed words and English stems (the common case).
      const config = lang ? searchConfigFor(lang) : 'english';
      const offset = (page - 1) * limit;
      const rows = await sql<(Omit<ArticleHit, 'createdAt'> & { video_id: string; created_at: Date; total: number })[]>`
        with matches as (
          select a.id, a.video_id, a.title, a.summary, a.lang, a.category, a.tags, a.created_at,
                 ${q ? sql`ts_rank_cd(a.search_vector, tq.query)` : sql`0`}::float4 as rank,
                 count(*) over () as total
          from articles a
          ${q ? sql`cross join (select websearch_to_tsquery(${config}::regconfig, ${q}) || websearch_to_tsquery('simple', ${q}) as query) tq` : sql``}
          where true
            ${q ? sql`and a.search_vector @@ tq.query` : sql``}
            ${category ? sql`and a.category = ${category}` : sql``}
            ${lang ? sql`and (lower(a.lang) = lower(${lang}) or lower(split_part(a.lang, '-', 1)) = lower(${lang}))` : sql``}
          order by rank desc, a.created_at desc, a.id
          limit ${limit} offset ${offset}
        )
        select m.*, ${
          q
            ? sql`ts_headline(${config}::regconfig, m.summary, websearch_to_tsquery(${config}::regconfig, ${q}), 'MaxFragments=1, MaxWords=30, MinWords=10')`
            : sql`null`
        } as snippet
        from matches m order by m.rank desc, m.created_at desc, m.id`;
      let total = Number(rows[0]?.total ?? 0);
      if (rows.length === 0 && offset > 0) {
        // Past the last page: count separately so the caller still learns the total.
        const [c] = await sql<{ n: number }[]>`
          select count(*)::int as n from articles a
          where true
            ${q ? sql`and a.search_vector @@ (websearch_to_tsquery(${config}::regconfig, ${q}) || websearch_to_tsquery('simple', ${q}))` : sql``}
            ${category ? sql`and a.category = ${category}` : sql``}
            ${lang ? sql`and (lower(a.lang) = lower(${lang}) or lower(split_part(a.lang, '-', 1)) = lower(${lang}))` : sql``}`;
        total = c?.n ?? 0;
      }
      return {
        total,
        page,
        limit,
        results: rows.map((r) => ({
          id: r.id,
          videoId: r.video_id,
          title: r.title,
          summary: r.summary,
          lang: r.lang,
          category: r.category,
          tags: r.tags,
          createdAt: r.created_at.toISOString(),
          ...(r.snippet ? { snippet: r.snippet } : {}),
        })),
      };
    },
  };
}
