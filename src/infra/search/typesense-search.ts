// ArticleSearch on Typesense with the official client. One document per article; the collection is created on
// first use when missing. API: https://typesense.org/docs/latest/api/
import { Client, Errors } from 'typesense';
import type { CollectionCreateSchema, ImportResponse, SearchResponseHit } from 'typesense';
import { ServiceError } from '../../domain/errors.ts';
import type {
  ArticleHit,
  ArticleSearch,
  ArticleSearchQuery,
  BulkIndexResult,
  SearchPosition,
} from '../../domain/articles/ports.ts';
import type { Article, ArticleCategory } from '../../domain/articles/schemas.ts';

export interface TypesenseSearchOptions {
  /** e.g. http://localhost:8108; one URL per node. */
  urls: string[];
  apiKey: string;
  collection: string;
  timeoutSeconds?: number;
  numRetries?: number;
}

interface ArticleDoc {
  [key: string]: unknown;
  id: string;
  videoId: string;
  title: string;
  summary: string;
  /** Section headings and text: searched, never returned. */
  body: string;
  tags: string[];
  category: string;
  lang: string;
  createdAt: string;
  /** createdAt as epoch ms: Typesense sorts on numbers only. */
  created_at: number;
}

const articleCollectionSchema = (name: string): CollectionCreateSchema => ({
  name,
  fields: [
    { name: 'videoId', type: 'string', facet: true },
    { name: 'title', type: 'string' },
    { name: 'summary', type: 'string' },
    { name: 'body', type: 'string' },
    { name: 'tags', type: 'string[]', facet: true },
    { name: 'category', type: 'string', facet: true },
    { name: 'lang', type: 'string', facet: true },
    { name: 'createdAt', type: 'string', index: false, optional: true },
    { name: 'created_at', type: 'int64' },
  ],
  default_sorting_field: 'created_at',
});

/**
 * A filter_by value: backticks quote it so `,`, `&&`, `||`, `:`, `(` and spaces are literal. Typesense has no
 * escape for a backtick inside one, so backticks are removed (no language code or category has one).
 */
export const filterValue = (v: string): string => `\`${v.replace(/`/g, '')}\``;

function toDoc(a: Article): ArticleDoc {
  return {
    id: a.id,
    videoId: a.videoId,
    title: a.title,
    summary: a.summary,
    body: a.sections.map((s) => `${s.heading}\n${s.text}`).join('\n\n'),
    tags: a.tags,
    category: a.category,
    lang: a.lang,
    createdAt: a.createdAt,
    created_at: Date.parse(a.createdAt) || 0,
  };
}

function nodeFor(url: string) {
  const u = new URL(url);
  const protocol = u.protocol.replace(':', '');
  const port = u.port ? Number(u.port) : protocol === 'https' ? 443 : 80;
  return { host: u.hostname, port, protocol, path: u.pathname === '/' ? '' : u.pathname.replace(/\/$/, '') };
}

export function createTypesenseSearch(opts: TypesenseSearchOptions): ArticleSearch {
  const client = new Client({
    nodes: opts.urls.map(nodeFor),
    apiKey: opts.apiKey,
    connectionTimeoutSeconds: opts.timeoutSeconds ?? 5,
    numRetries: opts.numRetries ?? 2,
    retryIntervalSeconds: 0.2,
    logLevel: 'error',
  });
  const docs = () => articleDocuments(client, opts.collection);
  const ensureCollection = collectionOnFirstUse(client, opts.collection);
  return { ...articleIndexing(docs, ensureCollection), ...articleQueries(docs, ensureCollection) };
}

const articleDocuments = (client: Client, name: string) => client.collections<ArticleDoc>(name).documents();
type ArticleDocs = () => ReturnType<typeof articleDocuments>;

function articleIndexing(
  docs: ArticleDocs,
  ensureCollection: () => Promise<void>,
): Pick<ArticleSearch, 'index' | 'indexMany'> {
  return {
    async index(article) {
      try {
        await ensureCollection();
        await docs().upsert(toDoc(article));
      } catch (e) {
        throw new ServiceError('INTERNAL_ERROR', `Could not index the article (${describe(e)})`);
      }
    },

    async indexMany(articles): Promise<BulkIndexResult> {
      if (articles.length === 0) return { indexed: 0, failed: [] };
      let results;
      try {
        await ensureCollection();
        // One JSONL request; Typesense answers one result line per document, in order
        // (https://typesense.org/docs/latest/api/documents.html#index-multiple-documents). throwOnFail: false so
        // per-document failures come back as results instead of one exception for the whole batch.
        results = await docs().import(articles.map(toDoc), { action: 'upsert', throwOnFail: false });
      } catch (e) {
        throw new ServiceError('INTERNAL_ERROR', `Could not index ${articles.length} articles (${describe(e)})`);
      }
      const failed = failedDocuments(articles, results);
      return { indexed: articles.length - failed.length, failed };
    },
  };
}

function articleQueries(docs: ArticleDocs, ensureCollection: () => Promise<void>): Pick<ArticleSearch, 'search'> {
  return {
    async search(q: ArticleSearchQuery) {
      const filters = filtersOf(q);
      const text = q.query?.trim() || '*';
      // Typesense pages by offset whatever the depth: its cursor is where the page ended.
      const from = q.after ? offsetOf(q.after) : (q.page - 1) * q.limit;
      try {
        await ensureCollection();
        const res = await docs().search({
          q: text,
          query_by: 'title,tags,summary,body',
          query_by_weights: '4,3,2,1',
          ...(filters.length ? { filter_by: filters.join(' && ') } : {}),
          sort_by: text === '*' ? 'created_at:desc' : '_text_match:desc,created_at:desc',
          exclude_fields: 'body,created_at',
          highlight_fields: 'summary,body',
          ...(q.after ? { offset: from, limit: q.limit } : { page: q.page, per_page: q.limit }),
        });
        const results = (res.hits ?? []).map(toHit);
        const next = results.length === q.limit ? { o: from + results.length } : null;
        return { total: res.found, page: q.page, limit: q.limit, results, next };
      } catch (e) {
        throw new ServiceError('SERVICE_BUSY', `Search is unavailable (${describe(e)})`, 5);
      }
    },
  };
}

/** Creates the collection on first use when missing; a failed attempt is tried again on the next call. */
function collectionOnFirstUse(client: Client, name: string): () => Promise<void> {
  let ready: Promise<void> | undefined;
  return () =>
    (ready ??= (async () => {
      try {
        await client.collections(name).retrieve();
      } catch (e) {
        if (!(e instanceof Errors.ObjectNotFound)) throw e;
        try {
          await client.collections().create(articleCollectionSchema(name));
        } catch (e2) {
          if (!(e2 instanceof Errors.ObjectAlreadyExists)) throw e2; // another instance won the race
        }
      }
    })().catch((e: unknown) => {
      ready = undefined; // try again next call
      throw e;
    }));
}

function failedDocuments(articles: Article[], results: ImportResponse<ArticleDoc>[]): BulkIndexResult['failed'] {
  return articles.flatMap((a, i) => {
    const r = results[i];
    // The error text only: a failed result can echo the whole document back.
    return r?.success === true
      ? []
      : [{ id: a.id, error: String(r?.error ?? 'no result for this document').slice(0, 200) }];
  });
}

function filtersOf(q: ArticleSearchQuery): string[] {
  const filters: string[] = [];
  if (q.category) filters.push(`category:=${filterValue(q.category)}`);
  if (q.lang) filters.push(`lang:=${filterValue(q.lang)}`);
  return filters;
}

function toHit(hit: SearchResponseHit<ArticleDoc>): ArticleHit {
  const d = hit.document;
  const snippet = hit.highlights?.find((h) => h.snippet)?.snippet;
  return {
    id: d.id,
    videoId: d.videoId,
    title: d.title,
    summary: d.summary,
    lang: d.lang,
    category: d.category as ArticleCategory,
    tags: d.tags ?? [],
    createdAt: d.createdAt,
    ...(snippet ? { snippet } : {}),
  };
}

function offsetOf(p: SearchPosition): number {
  const o = p.o;
  if (typeof o !== 'number' || !Number.isInteger(o) || o < 0 || o > 1_000_000)
    throw new ServiceError('INVALID_REQUEST', 'cursor is not a cursor this service issued');
  return o;
}

/** Error class and HTTP status only: Typesense bodies can echo the query, never the key, but keep it short. */
function describe(e: unknown): string {
  if (e instanceof Errors.TypesenseError) return `${e.name}${e.httpStatus ? ` ${e.httpStatus}` : ''}`;
  return e instanceof Error ? e.name : 'unknown error';
}
