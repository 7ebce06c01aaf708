import { sql, type SQL } from 'drizzle-orm';
import {
  customType,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  real,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });
const regconfig = customType<{ data: string }>({ dataType: () => 'regconfig' });
/** Text compared byte by byte, not by the database's locale: the phrase pairs' index is built and searched faster. */
const bytewiseTextArray = customType<{ data: string[] }>({ dataType: () => 'text[] COLLATE "C"' });

/** A translated transcript per (video, source, target); usable as a transcript in the target language. */
export const translations = pgTable(
  'translations',
  {
    videoId: text('video_id').notNull(),
    sourceLang: text('source_lang').notNull(),
    targetLang: text('target_lang').notNull(),
    segmentCount: integer('segment_count').notNull(),
    duration: real('duration').notNull(),
    body: text('body').notNull(),
    model: text('model').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.videoId, t.sourceLang, t.targetLang] })],
);

export const articles = pgTable(
  'articles',
  {
    id: text('id').primaryKey(),
    videoId: text('video_id').notNull(),
    lang: text('lang').notNull(),
    length: text('length').notNull(),
    sourceLang: text('source_lang').notNull(),
    title: text('title').notNull(),
    summary: text('summary').notNull(),
    category: text('category').notNull(),
    tags: text('tags').array().notNull(),
    /** The whole article as served. */
    body: jsonb('body').notNull(),
    /** Text search configuration for `lang` (english, german, ... or simple). */
    searchConfig: regconfig('search_config').notNull(),
    /** Tags, key points and section text, flattened for the index. */
    searchText: text('search_text').notNull(),
    searchVector: tsvector('search_vector')
      .notNull()
      .generatedAlwaysAs(
        (): SQL => sql`setweight(to_tsvector(search_config, title), 'A')
          || setweight(to_tsvector('simple', title), 'A')
          || setweight(to_tsvector(search_config, summary), 'B')
          || setweight(to_tsvector(search_config, search_text), 'C')`,
      ),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('articles_variant_idx').on(t.videoId, t.lang, t.length, t.sourceLang)],
);

/**
 * What search reads: a narrow copy of each article's filters, date and vectors, written by the trigger
 * `articles_search_sync` (migration 0005) on every insert or update of `articles`. Rows stay small (the whole vector
 * is toasted out of line, the title vector kept inline), so matching, counting and ordering read a few MB.
 */
export const articleSearch = pgTable(
  'article_search',
  {
    id: text('id')
      .primaryKey()
      .references(() => articles.id, { onDelete: 'cascade' }),
    category: text('category').notNull(),
    /** Lower case, as stored on the article (en-gb). */
    lang: text('lang').notNull(),
    /** Lower case, without the region (en). */
    langBase: text('lang_base').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    /** The title alone, in the article's configuration and unstemmed, unweighted: the first ranking tier. */
    titleVector: tsvector('title_vector').notNull(),
    /** The article's weighted search_vector. */
    searchVector: tsvector('search_vector').notNull(),
    /** Adjacent word pairs of search_vector ("calvin cycl"): quoted phrases narrow on these first (migration 0012). */
    pairs: bytewiseTextArray('pairs').notNull().default(sql`'{}'`),
  },
  (t) => [
    // With btree_gin (migrations 0013, 0014), else article_search_vector_idx on search_vector alone.
    index('article_search_match_idx').using('gin', t.searchVector, t.langBase, t.category, t.createdAt),
    index('article_search_pairs_idx').using('gin', t.pairs),
    // A phrase's title matches, found from the title's own pairs (migration 0022).
    index('article_search_title_pairs_idx').using('gin', sql`article_word_pairs(${t.titleVector})`),
    index('article_search_title_idx').using('gin', t.titleVector),
    index('article_search_lang_idx').on(t.langBase, t.createdAt.desc(), t.id),
    index('article_search_category_idx').on(t.category, t.createdAt.desc(), t.id),
    index('article_search_created_idx').on(t.createdAt.desc(), t.id),
  ],
);

/** Long work a caller can poll: GET /api/v1/jobs/{id}. */
export const tasks = pgTable(
  'tasks',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id').notNull(),
    kind: text('kind', { enum: ['summary', 'translation'] }).notNull(),
    status: text('status', { enum: ['queued', 'running', 'succeeded', 'failed'] }).notNull(),
    progress: real('progress').notNull().default(0),
    input: jsonb('input').notNull(),
    result: jsonb('result'),
    error: jsonb('error').$type<{ code: string; message: string }>(),
    creditsCharged: integer('credits_charged').notNull().default(0),
    requestId: text('request_id').notNull(),
    /**
     * The queue's dedup key of the work this task waits on (one job per key). Every task with the key follows that
     * job, so two callers asking for the same translation at once each get a pollable task for one piece of work.
     */
    jobKey: text('job_key'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('tasks_account_idx').on(t.accountId, t.createdAt), index('tasks_job_key_idx').on(t.jobKey)],
);

export const llmUsage = pgTable('llm_usage', {
  id: text('id').primaryKey(),
  taskId: text('task_id'),
  operation: text('operation').notNull(),
  model: text('model').notNull(),
  inputTokens: integer('input_tokens').notNull(),
  outputTokens: integer('output_tokens').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
