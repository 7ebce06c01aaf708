import type { Sql } from '../../../db/client.ts';
import { newId } from '../ids.ts';
import type { Article, ArticleDraft, ArticleLength } from './schemas.ts';
import { searchConfigFor } from './search-config.ts';

interface ArticleRow {
  id: string;
  body: ArticleDraft;
  created_at: Date;
}

const fromRow = (r: ArticleRow): Article => ({ ...r.body, id: r.id, createdAt: r.created_at.toISOString() });

/** What the full-text index reads besides title and summary: tags, key points, section headings and text. */
export const searchTextOf = (a: ArticleDraft): string =>
  [a.tags.join(' '), ...a.keyPoints, ...a.sections.flatMap((s) => [s.heading, s.text])].filter(Boolean).join('\n');

/**
 * Stores an article under its variant (video, lang, length, sourceLang). Storing a variant again replaces its
 * content and keeps its id, so links to an article survive a regeneration (extractive -> LLM).
 */
export async function storeArticle(sql: Sql, draft: ArticleDraft, opts: { now?: Date } = {}): Promise<Article> {
  const [row] = await sql<ArticleRow[]>`
    insert into articles (id, video_id, lang, length, source_lang, title, summary, category, tags, body, search_config, search_text, created_at)
    values (${newId('art')}, ${draft.videoId}, ${draft.lang}, ${draft.length}, ${draft.sourceLang}, ${draft.title}, ${draft.summary},
            ${draft.category}, ${sql.array(draft.tags)}, ${sql.json(draft as never)}, ${searchConfigFor(draft.lang)}::regconfig,
            ${searchTextOf(draft)}, ${(opts.now ?? new Date()).toISOString()}::timestamptz)
    on conflict (video_id, lang, length, source_lang) do update set
      title = excluded.title, summary = excluded.summary, category = excluded.category, tags = excluded.tags,
      body = excluded.body, search_config = excluded.search_config, search_text = excluded.search_text,
      created_at = excluded.created_at
    returning id, body, created_at`;
  return fromRow(row!);
}

export async function readArticle(sql: Sql, id: string): Promise<Article | null> {
  const [row] = await sql<ArticleRow[]>`select id, body, created_at from articles where id = ${id}`;
  return row ? fromRow(row) : null;
}

/** Up to `limit` stored articles with ids after `afterId`, in id order: keyset pages that stay fast at any depth. */
export async function listArticlesAfter(sql: Sql, afterId: string | null, limit: number): Promise<Article[]> {
  const rows = await sql<ArticleRow[]>`
    select id, body, created_at from articles
    ${afterId === null ? sql`` : sql`where id > ${afterId}`}
    order by id limit ${limit}`;
  return rows.map(fromRow);
}

/**
 * A stored article for (video, lang, length), from `sourceLang`'s transcript when given (exact or base language),
 * else from any transcript, the one in `lang` first. `llmOnly` skips extractive ones (an LLM can do better now).
 */
export async function findArticle(
  sql: Sql,
  q: { videoId: string; lang: string; length: ArticleLength; sourceLang?: string | null; llmOnly: boolean },
): Promise<Article | null> {
  const src = q.sourceLang ?? null;
  const [row] = await sql<ArticleRow[]>`
    select id, body, created_at from articles
    where video_id = ${q.videoId} and lower(lang) = lower(${q.lang}) and length = ${q.length}
      ${src ? sql`and (lower(source_lang) = lower(${src}) or lower(split_part(source_lang, '-', 1)) = lower(${src}))` : sql``}
      ${q.llmOnly ? sql`and body->'generator'->>'kind' = 'llm'` : sql``}
    order by (lower(source_lang) = lower(${src ?? q.lang})) desc, created_at desc
    limit 1`;
  return row ? fromRow(row) : null;
}
