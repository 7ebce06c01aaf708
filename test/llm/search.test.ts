// GET /api/v1/articles (MCP search_articles) and GET /api/v1/articles/{id} on the Postgres backend, over a few
// hundred articles stored with the same function summaries use.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ArticleCategory, ArticleDraft } from '../../src/domain/articles/schemas.ts';
import { ARTICLE_CATEGORIES } from '../../src/domain/articles/categories.ts';
import { mcpClient, rest, trpcClient } from '../support/clients.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';
import { newVideoId } from './llm-fixtures.ts';
import { storeArticle } from '../support/stores.ts';
import { createPgArticleSearch, TITLE_RANKED } from '../../src/infra/search/pg-article-search.ts';

const TOPICS = [
  'volcano',
  'saxophone',
  'blockchain',
  'marathon',
  'origami',
  'telescope',
  'espresso',
  'glacier',
  'robotics',
  'chess',
];
const LANGS = ['en', 'de', 'fr', 'es', 'pt-BR'];
const COUNT = 300;

let s: TestServer;
let key: string;
const byCategoryLang = new Map<string, number>();
let sourdoughId = '';

function draft(k: number, over: Partial<ArticleDraft> = {}): ArticleDraft {
  const topic = TOPICS[k % TOPICS.length]!;
  const category = ARTICLE_CATEGORIES[k % ARTICLE_CATEGORIES.length] as ArticleCategory;
  const lang = LANGS[k % LANGS.length]!;
  return {
    videoId: newVideoId(),
    lang,
    length: 'medium',
    sourceLang: lang,
    title: `All about ${topic} part ${k}`,
    summary: `This video talks about ${topic} in some detail, episode ${k}.`,
    sections: [
      {
        heading: `Intro to ${topic}`,
        start: 0,
        end: 60,
        text: `Some words about ${topic}. We also mention sourdough once.`,
      },
      { heading: 'Wrap up', start: 60, end: 120, text: 'Thanks for watching.' },
    ],
    keyPoints: [`${topic} matters`],
    tags: [topic, 'series'],
    category,
    generator: { kind: 'extractive' },
    ...over,
  };
}

beforeAll(async () => {
  s = await startTestServer({});
  ({ key } = await s.newKey());
  const base = Date.now() - COUNT * 1000;
  for (let k = 0; k < COUNT; k++) {
    const d = draft(k);
    await storeArticle(s.deps.sql, d, { now: new Date(base + k * 1000) });
    byCategoryLang.set(`${d.category}|${d.lang}`, (byCategoryLang.get(`${d.category}|${d.lang}`) ?? 0) + 1);
  }
  const special = await storeArticle(
    s.deps.sql,
    draft(COUNT, {
      lang: 'en',
      sourceLang: 'en',
      title: 'The complete guide to sourdough fermentation',
      summary: 'How wild yeast and bacteria make sourdough bread rise.',
      category: 'food',
      tags: ['sourdough', 'baking'],
      sections: [{ heading: 'Starter', start: 0, end: 300, text: 'Feed the starter with flour and water every day.' }],
      keyPoints: ['A starter needs daily feeding'],
    }),
    { now: new Date(base - 10_000) }, // the oldest: it must win on relevance, not recency
  );
  sourdoughId = special.id;
});
afterAll(() => s?.close());

const search = (query: Record<string, string>) => rest(s.url, 'GET', '/articles', { key, query });

/** Every result of a search, page after page by nextCursor (and the pages' own fields, to check them). */
async function followCursor(find: typeof search, query: Record<string, string>) {
  const ids: string[] = [];
  const pages: any[] = [];
  let cursor: string | null = null;
  do {
    const r = await find({ ...query, ...(cursor ? { cursor } : {}) });
    expect(r.status, JSON.stringify(r.json).slice(0, 300)).toBe(200);
    pages.push(r.json);
    ids.push(...r.json.results.map((h: { id: string }) => h.id));
    cursor = r.json.nextCursor;
  } while (cursor && pages.length < 1000);
  return { ids, pages };
}

/** Every result of a search, page after page by number. */
async function followPages(find: typeof search, query: Record<string, string>, limit: number) {
  const ids: string[] = [];
  for (let page = 1; ; page++) {
    const r = await find({ ...query, limit: String(limit), page: String(page) });
    ids.push(...r.json.results.map((h: { id: string }) => h.id));
    if (!r.json.hasMore) return ids;
  }
}

describe('relevance', () => {
  it('the article about the query comes first (title beats a passing mention in sections)', async () => {
    const r = await search({ query: 'sourdough fermentation' });
    expect(r.status).toBe(200);
    expect(r.json.results[0].id).toBe(sourdoughId);
    const broad = await search({ query: 'sourdough' });
    expect(broad.json.total).toBe(COUNT + 1); // every other article mentions it in a section
    expect(broad.json.results[0].id).toBe(sourdoughId);
    expect(broad.json.results[0].snippet).toContain('<b>');
  });

  it('stemmed and topic queries find the right articles', async () => {
    const r = await search({ query: 'volcanoes', lang: 'en', limit: '50' });
    expect(r.json.total).toBeGreaterThan(0);
    for (const hit of r.json.results) expect(hit.title).toContain('volcano');
    const phrase = await search({ query: '"complete guide"' });
    expect(phrase.json.results.map((h: { id: string }) => h.id)).toEqual([sourdoughId]);
  });

  it('without a query lists newest first', async () => {
    const r = await search({ limit: '3' });
    expect(r.json.total).toBe(COUNT + 1);
    expect(r.json.results.map((h: { title: string }) => h.title)).toEqual([
      `All about chess part 299`,
      `All about robotics part 298`,
      `All about glacier part 297`,
    ]);
  });
});

describe('filters', () => {
  it('category and lang narrow the results exactly', async () => {
    for (const [category, lang] of [
      ['food', 'de'],
      ['food', 'en'],
      ['science', 'en'],
      ['music', 'pt-BR'],
    ] as Array<[string, string]>) {
      const expected = byCategoryLang.get(`${category}|${lang}`) ?? 0;
      const r = await search({ category, lang, limit: '50' });
      expect(r.status).toBe(200);
      expect(r.json.total, `${category} ${lang}`).toBe(expected + (category === 'food' && lang === 'en' ? 1 : 0));
      for (const hit of r.json.results) expect([hit.category, hit.lang]).toEqual([category, lang]);
    }
    const base = await search({ lang: 'pt', limit: '1' });
    expect(base.json.total).toBe(COUNT / LANGS.length); // pt matches pt-BR
    const combined = await search({ query: 'sourdough', category: 'food', lang: 'en' });
    expect(combined.json.results[0].id).toBe(sourdoughId);
  });

  it('an unknown category or a malformed lang is 400', async () => {
    for (const q of [{ category: 'cooking' }, { lang: 'english!' }] as Record<string, string>[]) {
      const r = await search(q);
      expect(r.status).toBe(400);
      expect(r.json.error.code).toBe('INVALID_REQUEST');
    }
  });
});

describe('paging', () => {
  it('walks to the last page, and past it', async () => {
    const total = COUNT + 1;
    const first = await search({ limit: '50' });
    expect(first.json).toMatchObject({ total, page: 1, limit: 50, totalPages: 7, hasMore: true });
    const last = await search({ limit: '50', page: '7' });
    expect(last.json).toMatchObject({ total, page: 7, totalPages: 7, hasMore: false });
    expect(last.json.results).toHaveLength(total - 6 * 50);
    const past = await search({ limit: '50', page: '8' });
    expect(past.status).toBe(200);
    expect(past.json).toMatchObject({ total, page: 8, totalPages: 7, hasMore: false, results: [] });
    const seen = new Set<string>();
    for (let page = 1; page <= 7; page++)
      for (const h of (await search({ limit: '50', page: String(page) })).json.results) seen.add(h.id);
    expect(seen.size).toBe(total);
  });

  it('defaults to page 1 of 10; nothing matching is total 0, totalPages 0', async () => {
    const r = await search({});
    expect(r.json).toMatchObject({ page: 1, limit: 10 });
    expect(r.json.results).toHaveLength(10);
    const none = await search({ query: 'zzzunmatchedzzz' });
    expect(none.json).toEqual({
      total: 0,
      totalExact: true,
      page: 1,
      limit: 10,
      totalPages: 0,
      hasMore: false,
      nextCursor: null,
      results: [],
    });
  });

  let walker = '';
  beforeAll(async () => {
    ({ key: walker } = await s.newKey({ rateLimit: 100_000 }));
  });
  const walk = (query: Record<string, string>) => rest(s.url, 'GET', '/articles', { key: walker, query });

  it('nextCursor walks the same order as page numbers, in every tier, and ends with null', async () => {
    for (const [query, limit] of [
      [{}, 50], // no query: newest first
      [{ query: 'sourdough' }, 50], // one title match, then 300 newest first
      [{ query: 'sourdough', category: 'food' }, 3], // one title match, then a few ranked on the whole text
      [{ query: 'volcano', lang: 'en' }, 4], // title matches only
    ] as [Record<string, string>, number][]) {
      const byPage = await followPages(walk, query, limit);
      const { ids, pages } = await followCursor(walk, { ...query, limit: String(limit) });
      expect(ids, JSON.stringify(query)).toEqual(byPage);
      expect(pages.at(-1).nextCursor).toBeNull();
      expect(pages.map((p) => p.page)).toEqual(pages.map((_, i) => i + 1));
      expect(pages.every((p) => p.total === pages[0].total)).toBe(true);
    }
  });

  it('a cursor from another search, a forged one, or one with page is 400', async () => {
    const first = (await walk({ query: 'sourdough', limit: '5' })).json;
    const cursor = first.nextCursor as string;
    const forge = (p: unknown) => {
      const e = JSON.parse(Buffer.from(cursor, 'base64url').toString());
      return Buffer.from(JSON.stringify({ ...e, p }), 'utf8').toString('base64url');
    };
    for (const q of [
      { query: 'volcano', cursor },
      { query: 'sourdough', category: 'food', cursor },
      { query: 'sourdough', cursor, page: '2' },
      { query: 'sourdough', cursor: 'not-a-cursor' },
      { query: 'sourdough', cursor: cursor.slice(0, -4) },
      { query: 'sourdough', cursor: forge({ t: 'dated', k: ['2025-02-30T00:00:00.000000Z', 'x'] }) },
      { query: 'sourdough', cursor: forge({ t: 'dated', k: ["1'; drop table articles --", 'x'] }) },
      { query: 'sourdough', cursor: forge({ t: 'sideways', o: 1 }) },
      { query: 'sourdough', cursor: forge({ t: 'head', o: -1 }) },
    ] as Record<string, string>[]) {
      const r = await walk(q);
      expect(r.status, JSON.stringify(q)).toBe(400);
      expect(r.json.error.code).toBe('INVALID_REQUEST');
    }
    const second = await walk({ query: 'sourdough', limit: '5', cursor });
    expect(second.json.results.map((h: { id: string }) => h.id)).toEqual(
      (await walk({ query: 'sourdough', limit: '5', page: '2' })).json.results.map((h: { id: string }) => h.id),
    );
  });

  it('limit 1..50, page >= 1 and page * limit <= 10,000, else 400', async () => {
    for (const q of [
      { limit: '0' },
      { limit: '51' },
      { page: '0' },
      { page: '-1' },
      { page: '1.5' },
      { page: 'abc' },
      { limit: '50', page: '201' },
      { page: '10001' },
    ] as Record<string, string>[]) {
      const r = await search(q);
      expect(r.status, JSON.stringify(q)).toBe(400);
      expect(r.json.error.code).toBe('INVALID_REQUEST');
    }
    expect((await search({ limit: '50', page: '200' })).status).toBe(200);
    expect((await search({ limit: '1' })).json.results).toHaveLength(1);
  });
});

describe('hostile queries', () => {
  it('quotes, SQL and tsquery operators are harmless text', async () => {
    for (const query of [
      "'; drop table articles; --",
      '"unbalanced',
      "it's",
      '!:*&|',
      'a & | b',
      '((( volcano',
      '\\',
      '%_',
      'volcano:* | !chess',
      '<b>x</b>',
      '😀 ünïcödé',
      'x'.repeat(200),
    ]) {
      const r = await search({ query });
      expect(r.status, query).toBe(200);
      expect(Array.isArray(r.json.results)).toBe(true);
    }
    const op = await search({ query: 'volcano:* | !chess' });
    for (const hit of op.json.results) expect(hit.title).toContain('volcano');
    expect((await search({ query: 'x'.repeat(201) })).status).toBe(400);
    const [row] = await s.deps.sql`select count(*)::int as n from articles`;
    expect(row!.n).toBe(COUNT + 1);
  });
});

describe('one article and MCP', () => {
  it('GET /articles/{id} returns the whole article; an unknown id is 404 ARTICLE_NOT_FOUND', async () => {
    const r = await rest(s.url, 'GET', `/articles/${sourdoughId}`, { key });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({
      id: sourdoughId,
      title: 'The complete guide to sourdough fermentation',
      sections: expect.any(Array),
      keyPoints: expect.any(Array),
    });
    const missing = await rest(s.url, 'GET', '/articles/art_nope', { key });
    expect(missing.status).toBe(404);
    expect(missing.json.error.code).toBe('ARTICLE_NOT_FOUND');
  });

  it('search_articles over MCP answers the same, and is free', async () => {
    const client = await mcpClient(s.url, key);
    const result: any = await client.callTool({
      name: 'search_articles',
      arguments: { query: 'sourdough fermentation', limit: 5 },
    });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ total: 1, page: 1, limit: 5, totalPages: 1, hasMore: false });
    expect(result.structuredContent.results[0].id).toBe(sourdoughId);
    // The cursor travels over MCP as over REST: the same next page.
    const page1: any = await client.callTool({ name: 'search_articles', arguments: { query: 'sourdough', limit: 5 } });
    const cursor = page1.structuredContent.nextCursor;
    expect(JSON.stringify(page1.content)).toContain(cursor);
    const page2: any = await client.callTool({
      name: 'search_articles',
      arguments: { query: 'sourdough', limit: 5, cursor },
    });
    const viaRest = await search({ query: 'sourdough', limit: '5', cursor });
    expect(page2.structuredContent).toEqual(viaRest.json);
    expect(JSON.stringify(page2.content)).toContain(`6. ${viaRest.json.results[0].id}`);
    const viaTrpc = await trpcClient(s.url, key).articles.search.query({ query: 'sourdough', limit: 5, cursor });
    expect(viaTrpc).toEqual(viaRest.json);
    const one: any = await client.callTool({ name: 'get_article', arguments: { id: sourdoughId } });
    expect(one.structuredContent.id).toBe(sourdoughId);
    await client.close();
  });
});

describe('the search index (article_search, kept in step by a trigger)', () => {
  let many = '';
  beforeAll(async () => {
    ({ key: many } = await s.newKey({ rateLimit: 100_000 }));
  });
  const search = (query: Record<string, string>) => rest(s.url, 'GET', '/articles', { key: many, query });

  it('follows an article that is stored again with another title, and forgets a deleted one', async () => {
    const d = draft(COUNT + 1, {
      lang: 'en',
      sourceLang: 'en',
      title: 'Quokka habits on Rottnest island',
      category: 'science',
    });
    const stored = await storeArticle(s.deps.sql, d);
    expect((await search({ query: 'quokka' })).json.results.map((r: { id: string }) => r.id)).toEqual([stored.id]);
    await s.deps.sql`update articles set title = 'Wombat burrows' where id = ${stored.id}`;
    expect((await search({ query: 'quokka' })).json.total).toBe(0);
    expect((await search({ query: 'wombat' })).json.results[0].id).toBe(stored.id);
    await s.deps.sql`delete from articles where id = ${stored.id}`;
    expect((await search({ query: 'wombat' })).json.total).toBe(0);
  });

  it('title matches come before passing mentions on every page, and pages never repeat or skip an article', async () => {
    // Every article mentions sourdough in a section; only one has it in its title.
    const all: string[] = [];
    for (let page = 1; page <= 7; page++)
      all.push(
        ...(await search({ query: 'sourdough', limit: '50', page: String(page) })).json.results.map(
          (r: { id: string }) => r.id,
        ),
      );
    expect(all[0]).toBe(sourdoughId);
    expect(new Set(all).size).toBe(all.length);
    expect(all.length).toBe((await search({ query: 'sourdough' })).json.total);
  });

  it(`ranks the newest ${TITLE_RANKED} title matches by the title, older ones after them newest first, and pages stay whole`, async () => {
    // 700 title matches a minute apart (art_okapi1 the oldest); two repeat the word in the title, which ranks higher.
    await s.deps.sql`
      insert into articles (id, video_id, lang, length, source_lang, title, summary, category, tags, body, search_config, search_text, created_at)
      select 'art_okapi' || g, 'okapi' || g, 'en', 'medium', 'en',
             case when g in (10, 690) then 'Okapi okapi ' || g else 'Okapi number ' || g end,
             'An okapi.', 'science', '{}', '{}'::jsonb, 'english', '', now() - (800 - g) * interval '1 minute'
      from generate_series(1, 700) g`;
    try {
      const ids: string[] = [];
      for (let page = 1; page <= 14; page++)
        ids.push(
          ...(await search({ query: 'okapi', limit: '50', page: String(page) })).json.results.map(
            (r: { id: string }) => r.id,
          ),
        );
      expect(ids).toHaveLength(700);
      expect(new Set(ids).size).toBe(700);
      // Among the newest 500: the repeated title first, then newest first; the older 200 newest first after them.
      expect(ids.slice(0, 3)).toEqual(['art_okapi690', 'art_okapi700', 'art_okapi699']);
      expect(ids.slice(TITLE_RANKED - 1, TITLE_RANKED + 1)).toEqual(['art_okapi201', 'art_okapi200']);
      expect(ids.indexOf('art_okapi10')).toBe(TITLE_RANKED + 190);
      const across = await search({ query: 'okapi', limit: '30', page: '17' }); // positions 480-509: both tiers
      expect(across.json.results.map((r: { id: string }) => r.id)).toEqual(ids.slice(480, 510));
      // By cursor, with page edges that fall anywhere in the tiers: the same order.
      for (const limit of ['50', '47', '30'])
        expect((await followCursor(search, { query: 'okapi', limit })).ids, limit).toEqual(ids);
    } finally {
      await s.deps.sql`delete from articles where id like 'art_okapi%'`;
    }
  });

  it('over more than 10,000 matches outside titles, any page is the same newest-first slice a full sort gives', async () => {
    // 10,500 of 12,600 articles mention an ibis in the summary only, a minute apart and older than the others.
    await s.deps.sql`
      insert into articles (id, video_id, lang, length, source_lang, title, summary, category, tags, body, search_config, search_text, created_at)
      select 'art_ibis' || g, 'ibis' || g, 'en', 'medium', 'en', 'Bird number ' || g,
             case when g % 6 <> 0 then 'An ibis.' else 'A heron.' end, 'science', '{}', '{}'::jsonb, 'english', '',
             now() - interval '1 day' - (12600 - g) * interval '1 minute'
      from generate_series(1, 12600) g`;
    try {
      const truth = (
        await s.deps.sql<{ id: string }[]>`
        select id from articles where search_vector @@ (websearch_to_tsquery('english', 'ibis') || websearch_to_tsquery('simple', 'ibis'))
        order by created_at desc, id limit 10000`
      ).map((r) => r.id);
      for (const [page, limit] of [
        [1, 10],
        [2, 40],
        [3, 50],
        [40, 50],
        [200, 50],
      ] as const) {
        const r = await search({ query: 'ibis', page: String(page), limit: String(limit) });
        expect(r.json).toMatchObject({ total: 10_000, totalExact: false });
        expect(
          r.json.results.map((h: { id: string }) => h.id),
          `page ${page}`,
        ).toEqual(truth.slice((page - 1) * limit, page * limit));
      }
      // A cursor goes on past the 10,000 that page numbers reach, to the oldest match, and stops there.
      const all = await s.deps.sql<{ id: string }[]>`
        select id from articles where search_vector @@ (websearch_to_tsquery('english', 'ibis') || websearch_to_tsquery('simple', 'ibis'))
        order by created_at desc, id`;
      const from = (await search({ query: 'ibis', limit: '50', page: '190' })).json.nextCursor;
      const { ids, pages } = await followCursor(search, { query: 'ibis', limit: '50', cursor: from });
      expect(ids).toEqual(all.slice(190 * 50).map((r) => r.id));
      expect(pages.at(-1)).toMatchObject({ total: 10_000, totalExact: false, hasMore: false, nextCursor: null });
    } finally {
      await s.deps.sql`delete from articles where id like 'art_ibis%'`;
    }
  }, 90_000); // inserts over 10,000 articles

  it('under 10,000 matches outside titles, by a word and an excluded word too, pages are the newest-first slices a full sort gives', async () => {
    // 3,000 articles a minute apart, newer than the others; one in nine also mentions a wader (sparse among the newest).
    await s.deps.sql`
      insert into articles (id, video_id, lang, length, source_lang, title, summary, category, tags, body, search_config, search_text, created_at)
      select 'art_stork' || g, 'stork' || g, 'en', 'medium', 'en', 'Pond number ' || g,
             case when g % 9 = 0 then 'A stork and a wader.' else 'A stork.' end, 'science', '{}', '{}'::jsonb, 'english', '',
             now() + g * interval '1 minute'
      from generate_series(1, 3000) g`;
    try {
      for (const query of ['stork wader', 'stork -wader']) {
        const truth = (
          await s.deps.sql<{ id: string }[]>`
          select id from articles where search_vector @@ (websearch_to_tsquery('english', ${query}) || websearch_to_tsquery('simple', ${query}))
          order by created_at desc, id`
        ).map((r) => r.id);
        expect(truth.length, query).toBe(query === 'stork wader' ? 333 : 2667);
        for (const [page, limit] of [
          [1, 10],
          [3, 50],
          [7, 40],
          [Math.ceil(truth.length / 50), 50],
        ] as const) {
          const r = await search({ query, page: String(page), limit: String(limit) });
          expect(r.json).toMatchObject({ total: truth.length, totalExact: true });
          expect(
            r.json.results.map((h: { id: string }) => h.id),
            `${query} page ${page}`,
          ).toEqual(truth.slice((page - 1) * limit, page * limit));
        }
        expect((await followCursor(search, { query, limit: '50' })).ids, query).toEqual(truth);
      }
    } finally {
      await s.deps.sql`delete from articles where id like 'art_stork%'`;
    }
  });

  it('counts up to 10,000 matches and says when more match', async () => {
    // 13,100 more articles, written in SQL (the trigger indexes them as it does stored ones): with the whole table
    // allowed, more than 10,000 matches are found among the newest articles without counting them all.
    await s.deps.sql`
      insert into articles (id, video_id, lang, length, source_lang, title, summary, category, tags, body, search_config, search_text)
      select 'art_many' || g, 'many' || g, 'en', 'medium', 'en', 'Zebra number ' || g, 'A zebra.', 'science', '{}', '{}'::jsonb, 'english', ''
      from generate_series(1, 13100) g`;
    try {
      const r = await search({ query: 'zebra', limit: '50', page: '200' });
      expect(r.status).toBe(200);
      // The last page numbers reach; a cursor goes on.
      expect(r.json).toMatchObject({ total: 10_000, totalExact: false, totalPages: 200, hasMore: true });
      expect(r.json.results).toHaveLength(50);
      expect((await search({ query: 'zebra', limit: '50', cursor: r.json.nextCursor })).json.results).toHaveLength(50);
      const exact = await search({ query: 'zebra -number' });
      expect(exact.json).toMatchObject({ total: 0, totalExact: true });
      // Counted among the newest articles (as in a table of a million), then every match: the same answers.
      await s.deps.sql`analyze article_search`; // the table's size, as autovacuum keeps it
      const wide = createPgArticleSearch(s.deps.sql, { rangeShare: 1 });
      const count = async (query: string) => {
        const { total, totalExact } = await wide.search({ query, page: 1, limit: 10 });
        return { total, totalExact };
      };
      expect(await count('zebra')).toEqual({ total: 10_000, totalExact: false });
      expect(await count('zebra -number')).toEqual({ total: 0, totalExact: true });
      const [sourdough] = await s.deps.sql<{ n: number }[]>`
        select count(*)::int as n from articles where search_vector @@ to_tsquery('english', 'sourdough')`;
      expect(await count('sourdough')).toEqual({ total: sourdough!.n, totalExact: true });
      const mcp = await mcpClient(s.url, many);
      try {
        const text = await mcp.callTool({ name: 'search_articles', arguments: { query: 'zebra' } });
        expect(JSON.stringify(text.content)).toContain('More than 10,000 articles match');
      } finally {
        await mcp.close();
      }
    } finally {
      await s.deps.sql`delete from articles where id like 'art_many%'`;
    }
  }, 90_000); // inserts over 10,000 articles
});

describe('phrases', () => {
  // Runs last: it stores one more article.
  it('a quoted phrase finds exactly the articles holding its words in order, as the positional check alone does', async () => {
    await storeArticle(
      s.deps.sql,
      draft(COUNT + 1, {
        lang: 'de',
        sourceLang: 'de',
        title: 'Mit dem Fahrrad an der Donau',
        summary: 'Eine Radtour entlang der Donau bis Wien.',
        category: 'travel',
      }),
    );
    const queries = [
      '"complete guide"',
      '"wild yeast"',
      '"flour and water"',
      '"water flour"',
      '"some words about" volcano',
      '"Fahrrad an der Donau"',
      'sourdough -"thanks for watching"',
      '"thanks for watching" or "complete guide"',
      '"feed the starter" "every day"',
      '"sourdough"',
      '"the"',
    ];
    const own = await s.newKey({ rateLimit: 1000 }); // two searches per query: more than the default minute allows
    for (const query of queries) {
      const rows = await s.deps.sql<{ id: string }[]>`
        select id from articles where search_vector @@ (websearch_to_tsquery('english', ${query}) || websearch_to_tsquery('simple', ${query}))`;
      const r = await rest(s.url, 'GET', '/articles', { key: own.key, query: { query, limit: '50' } });
      expect(r.status).toBe(200);
      expect({ query, total: r.json.total }).toEqual({ query, total: rows.length });
      const truth = new Set(rows.map((x) => x.id));
      for (const hit of r.json.results) expect(truth.has(hit.id)).toBe(true);
    }
    const only = async (query: string) =>
      (await rest(s.url, 'GET', '/articles', { key: own.key, query: { query } })).json.total;
    expect(await only('"water flour"')).toBe(0);
    expect(await only('"Fahrrad an der Donau"')).toBe(1);
  });

  it('each article lists its adjacent word pairs, from its stored vector, kept in step by the trigger', async () => {
    const [p] = await s.deps.sql<
      { pairs: string[] }[]
    >`select article_word_pairs(to_tsvector('english', 'The Calvin cycle runs, in the stroma')) as pairs`;
    expect(p!.pairs.sort()).toEqual(['calvin cycl', 'cycl run']);
    const [row] = await s.deps.sql<{ n: number }[]>`
      select count(*)::int as n from article_search s join articles a using (id) where s.pairs <> article_word_pairs(a.search_vector)`;
    expect(row!.n).toBe(0);
  });

  it("a two-word phrase's title matches, found from the title's own pairs, are the titles holding it, first", async () => {
    // One title holds a word twice: the title index alone finds every title with the word.
    await storeArticle(
      s.deps.sql,
      draft(COUNT + 2, { title: 'Espresso espresso at home', lang: 'en', sourceLang: 'en' }),
    );
    const queries = ['"espresso espresso"', '"about volcano"', '"volcano part"', '"words about"', '"guide sourdough"'];
    const own = await s.newKey({ rateLimit: 1000 }); // every page of five searches: more than the default minute allows
    const find = (query: Record<string, string>) => rest(s.url, 'GET', '/articles', { key: own.key, query });
    for (const query of queries) {
      const truth = await s.deps.sql<{ id: string; titled: boolean }[]>`
        select s.id, s.title_vector @@ q as titled from article_search s,
          (select websearch_to_tsquery('english', ${query}) || websearch_to_tsquery('simple', ${query}) as q) t
        where s.search_vector @@ q`;
      const { ids } = await followCursor(find, { query, limit: '7' });
      expect({ query, ids: [...ids].sort() }).toEqual({ query, ids: truth.map((r) => r.id).sort() });
      const titled = truth.filter((r) => r.titled).map((r) => r.id);
      expect({ query, first: ids.slice(0, titled.length).sort() }).toEqual({ query, first: titled.sort() });
    }
  });
});
