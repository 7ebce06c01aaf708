// Generated articles, one per variant (video, lang, length, sourceLang); the Postgres search backend reads the
// same table (pg-article-search.ts).
import type { Sql } from '../../../db/client.ts';
import type { ArticleStore } from '../../domain/articles/article-store.ts';
import type { Article, ArticleDraft } from '../../domain/articles/schemas.ts';
import { searchConfigFor } from '../../domain/articles/search-config.ts';
import { newId } from '../../domain/ids.ts';

interface ArticleRow {
  id: string;
  body: ArticleDraft;
  created_at: Date;
}

const fromRow = (r: ArticleRow): Article => ({ ...r.body, id: r.id, createdAt: r.created_at.toISOString() });

/** What the full-text index reads besides title and summary: tags, key points, section headings and text. */
const searchTextOf = (a: ArticleDraft): string =>
  [a.tags.join(' '), ...a.keyPoints, ...a.sections.flatMap((s) => [s.heading, s.text])].filter(Boolean).join('\n');

export function createArticleStore(sql: Sql): ArticleStore {
  return {
    /**
     * Stores an article under its variant. Storing a variant again replaces its content and keeps its id, so
     * links to an article survive a regeneration (extractive -> LLM).
     */
    async store(draft, opts = {}) {
      const [row] = await sql<ArticleRow[]>`
        insert into articles (id, video_id, lang, length, source_lang, title, summary, category, tags, body, search_config, search_text, created_at)
        values (${newId('art')}, ${draft.videoId}, ${draft.lang}, ${draft.length}, ${draft.sourceLang}, ${draft.title}, ${draft.summary},
                ${draft.category}, ${sql.array(draft.tags)}, ${sql.json(draft)}, ${searchConfigFor(draft.lang)}::regconfig,
                ${searchTextOf(draft)}, ${(opts.now ?? new Date()).toISOString()}::timestamptz)
        on conflict (video_id, lang, length, source_lang) do update set
          title = excluded.title, summary = excluded.summary, category = excluded.category, tags = excluded.tags,
          body = excluded.body, search_config = excluded.search_config, search_text = excluded.search_text,
          created_at = excluded.created_at
        returning id, body, created_at`;
      return fromRow(row!);
    },

    async read(id) {
      const [row] = await sql<ArticleRow[]>`select id, body, created_at from articles where id = ${id}`;
      return row ? fromRow(row) : null;
    },

    /** Keyset pages in id order that stay fast at any depth. */
    async listAfter(afterId, limit) {
      const rows = await sql<ArticleRow[]>`
        select id, body, created_at from articles
        ${afterId === null ? sql`` : sql`where id > ${afterId}`}
        order by id limit ${limit}`;
      return rows.map(fromRow);
    },

    async find(q) {
      const src = q.sourceLang ?? null;
      const [row] = await sql<ArticleRow[]>`
        select id, body, created_at from articles
        where video_id = ${q.videoId} and lower(lang) = lower(${q.lang}) and length = ${q.length}
          ${src ? sql`and (lower(source_lang) = lower(${src}) or lower(split_part(source_lang, '-', 1)) = lower(${src}))` : sql``}
          ${q.llmOnly ? sql`and body->'generator'->>'kind' = 'llm'` : sql``}
        order by (lower(source_lang) = lower(${src ?? q.lang})) desc, created_at desc
        limit 1`;
      return row ? fromRow(row) : null;
    },

    async idOfVariant(v) {
      const [row] = await sql<{ id: string }[]>`
        select id from articles where video_id = ${v.videoId} and lang = ${v.lang} and length = ${v.length} and source_lang = ${v.sourceLang}`;
      return row?.id ?? null;
    },

    async count() {
      const [{ n } = { n: 0 }] = await sql<{ n: number }[]>`select count(*)::int as n from articles`;
      return n;
    },
  };
}
