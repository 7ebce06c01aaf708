import type { TransactionSql } from 'postgres';
import type { Sql } from '../../../db/client.ts';

/**
 * The quoted phrases a query requires (not excluded with `-"..."`, not in an `or`), as the adjacent word pairs each
 * article lists (migration 0012), in the query's configuration and unstemmed, as the query itself matches both:
 * an article holding a phrase holds its pairs in one of the two. Empty when that cannot narrow anything.
 *
 * `exact` when the query is nothing but two-word phrases (one pair each, in both configurations): holding the pair is
 * then the phrase match itself, and no article's vector need be read to check positions. `title` is then the title
 * match, from the title's own pairs (migration 0022).
 */
export async function phraseFilter(sql: Sql, tx: TransactionSql, q: string, config: string) {
  const none = { and: null, exact: false, title: null };
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
  const exact = onlyPhrases && rows.every((r) => r.own.length === 1 && r.plain.length === 1);
  // Spelled as the index is (article_word_pairs of the title vector), so that the planner uses it.
  const titlePairs = sql`article_word_pairs(s.title_vector)`;
  return {
    and: sql`(s.pairs @> ${own}::text[] or s.pairs @> ${plain}::text[])`,
    exact,
    title: exact ? sql`(${titlePairs} @> ${own}::text[] or ${titlePairs} @> ${plain}::text[])` : null,
  };
}
