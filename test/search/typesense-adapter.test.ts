// The Typesense ArticleSearch adapter, driven through the official `typesense` client against a loopback server
// that implements Typesense's documented REST API (test/support/fake-typesense.ts). This is NOT a real Typesense
// server (none can be installed here): it checks the requests the client makes and that we parse the documented
// response shapes, not Typesense's ranking.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isServiceError } from '../../src/domain/errors.ts';
import type { Article } from '../../src/domain/articles/schemas.ts';
import { createTypesenseSearch, filterValue } from '../../src/infra/search/typesense-search.ts';
import { startFakeTypesense } from '../support/fake-typesense.ts';

const KEY = 'ts-test-key';
let ts: Awaited<ReturnType<typeof startFakeTypesense>>;
beforeEach(async () => {
  ts = await startFakeTypesense(KEY);
});
afterEach(() => ts.close());

const search = (apiKey = KEY) =>
  createTypesenseSearch({ urls: [ts.url], apiKey, collection: 'articles', numRetries: 0 });

const article = (id: string, over: Partial<Article> = {}): Article => ({
  id,
  videoId: `vid_${id}`,
  lang: 'en',
  length: 'medium',
  sourceLang: 'en',
  title: `Title ${id}`,
  summary: `Summary about bread ${id}`,
  sections: [{ heading: 'Dough', start: 0, end: 60, text: 'knead the dough with sourdough starter' }],
  keyPoints: ['k'],
  tags: ['baking'],
  category: 'food',
  generator: { kind: 'llm', model: 'm' },
  createdAt: `2026-01-0${id.slice(-1)}T00:00:00.000Z`,
  ...over,
});

describe('happy', () => {
  it('creates the collection once, upserts, and sends the key header', async () => {
    const s = search();
    await s.index(article('art_1'));
    await s.index(article('art_2'));
    const calls = ts.requests.map(
      (r) => `${r.method} ${r.path}${r.query.get('action') ? `?action=${r.query.get('action')}` : ''}`,
    );
    expect(calls).toEqual([
      'GET /collections/articles',
      'POST /collections',
      'POST /collections/articles/documents?action=upsert',
      'POST /collections/articles/documents?action=upsert',
    ]);
    expect(ts.requests.every((r) => r.headers['x-typesense-api-key'] === KEY)).toBe(true);
    expect(ts.requests.every((r) => !r.query.has('x-typesense-api-key'))).toBe(true); // never in URLs/logs
    const schema = JSON.parse(ts.requests[1]!.body) as { name: string; default_sorting_field: string };
    expect(schema).toMatchObject({ name: 'articles', default_sorting_field: 'created_at' });
    const doc = JSON.parse(ts.requests[2]!.body) as Record<string, unknown>;
    expect(doc).toMatchObject({ id: 'art_1', category: 'food', created_at: Date.parse('2026-01-01T00:00:00.000Z') });
    expect(doc.body).toContain('sourdough');
  });

  it('searches with q, query_by, filter_by, page and per_page and parses hits', async () => {
    const s = search();
    for (const k of [1, 2, 3]) await s.index(article(`art_${k}`, k === 3 ? { lang: 'fr', category: 'travel' } : {}));
    const res = await s.search({ query: 'sourdough', category: 'food', lang: 'en', page: 1, limit: 10 });
    const r = ts.requests.at(-1)!;
    expect(r.method).toBe('GET');
    expect(r.path).toBe('/collections/articles/documents/search');
    expect(r.query.get('q')).toBe('sourdough');
    expect(r.query.get('query_by')).toBe('title,tags,summary,body');
    expect(r.query.get('filter_by')).toBe('category:=`food` && lang:=`en`');
    expect(r.query.get('page')).toBe('1');
    expect(r.query.get('per_page')).toBe('10');
    expect(res.total).toBe(2);
    expect(res.results.map((h) => h.id)).toEqual(['art_2', 'art_1']);
    expect(res.results[0]).toEqual({
      id: 'art_2',
      videoId: 'vid_art_2',
      title: 'Title art_2',
      summary: 'Summary about bread art_2',
      lang: 'en',
      category: 'food',
      tags: ['baking'],
      createdAt: '2026-01-02T00:00:00.000Z',
      snippet: 'Dough\nknead the dough with <mark>sourdough</mark> starter',
    });
  });

  it('lists newest first without a query, and pages', async () => {
    const s = search();
    for (const k of [1, 2, 3]) await s.index(article(`art_${k}`));
    const res = await s.search({ page: 2, limit: 2 });
    const r = ts.requests.at(-1)!;
    expect(r.query.get('q')).toBe('*');
    expect(r.query.get('sort_by')).toBe('created_at:desc');
    expect(r.query.has('filter_by')).toBe(false);
    expect(res).toMatchObject({ total: 3, page: 2, limit: 2 });
    expect(res.results.map((h) => h.id)).toEqual(['art_1']);
    expect(res.next).toBeNull();
  });

  it('continues from a position (offset and limit, as Typesense pages) and refuses a forged one', async () => {
    const s = search();
    for (const k of [1, 2, 3, 4, 5]) await s.index(article(`art_${k}`));
    const first = await s.search({ page: 1, limit: 2 });
    expect(first.results.map((h) => h.id)).toEqual(['art_5', 'art_4']);
    expect(first.next).toEqual({ o: 2 });
    const second = await s.search({ page: 1, limit: 2, after: first.next! });
    const r = ts.requests.at(-1)!;
    expect([r.query.get('offset'), r.query.get('limit'), r.query.has('page')]).toEqual(['2', '2', false]);
    expect(second.results.map((h) => h.id)).toEqual(['art_3', 'art_2']);
    for (const after of [{ o: -1 }, { o: 1.5 }, { o: '2' }, {}])
      await expect(s.search({ page: 1, limit: 2, after })).rejects.toMatchObject({ code: 'INVALID_REQUEST' });
  });
});

describe('security', () => {
  it('quotes filter values so they cannot add clauses', async () => {
    expect(filterValue('en` || category:=`x')).toBe('`en || category:=x`');
    const s = search();
    await s.index(article('art_1'));
    const res = await s.search({ lang: 'en` || lang:=`fr', page: 1, limit: 5 });
    expect(ts.requests.at(-1)!.query.get('filter_by')).toBe('lang:=`en || lang:=fr`');
    expect(res.total).toBe(0);
  });
});

describe('errors', () => {
  it('a rejected key becomes a clean ServiceError without the key', async () => {
    const err = await search('wrong-key')
      .search({ page: 1, limit: 5 })
      .catch((e: unknown) => e);
    expect(isServiceError(err) && err.code).toBe('SERVICE_BUSY');
    expect((err as Error).message).not.toContain('wrong-key');
    const err2 = await search('wrong-key')
      .index(article('art_1'))
      .catch((e: unknown) => e);
    expect(isServiceError(err2) && err2.code).toBe('INTERNAL_ERROR');
  });

  it('an existing collection is reused', async () => {
    await search().index(article('art_1'));
    ts.requests.length = 0;
    await search().index(article('art_2'));
    expect(ts.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'GET /collections/articles',
      'POST /collections/articles/documents',
    ]);
  });
});
