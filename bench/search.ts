// Bench 4: article search over 100,000 generated articles in PostgreSQL: a mix of queries and filters, through the
// search adapter the service uses (createPgArticleSearch) and through REST GET /api/v1/articles.
import { connect } from '../db/client.ts';
import { ARTICLE_CATEGORIES } from '../src/domain/articles/schemas.ts';
import { searchArticles } from '../src/domain/articles/search-articles.ts';
import { createPgArticleSearch } from '../src/infra/search/pg-article-search.ts';
import { benchDatabase, fmt, percentile, startChild, table, type BenchSection, type ChildServer } from './support.ts';
import { createApiKey, ensureAccount } from '../test/support/stores.ts';

const ARTICLES = Number(process.env.BENCH_ARTICLES ?? 100_000);
const BATCH = 5_000;
const LANGS = ['en', 'en', 'en', 'en-GB', 'de', 'fr', 'es', 'pt-BR'];

/** A generated vocabulary: pronounceable words, a few common ones and a long tail (Zipf-like use). */
function vocabulary(n: number): string[] {
  const syll = ['ka', 'lo', 'mi', 'ren', 'to', 'sa', 'vek', 'ul', 'dor', 'phi', 'an', 'tre', 'mos', 'qui', 'zel', 'bar'];
  // Word i spells i + 16 in base 16 with a syllable per digit: distinct by construction, 2 to 4 syllables.
  return Array.from({ length: n }, (_, i) => [...(i + 16).toString(16)].map((d) => syll[parseInt(d, 16)]).join(''));
}

export async function run(): Promise<BenchSection[]> {
  const db = await benchDatabase('search');
  const { sql } = connect(db.url, { max: 4 });
  let service: ChildServer | undefined;
  try {
    const vocab = vocabulary(20_000);
    // Deterministic pseudo-random numbers, so every run searches the same corpus.
    let seed = 42;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const word = () => vocab[Math.floor(vocab.length * rnd() ** 3)]!; // skewed: low indexes are common
    const words = (n: number) => Array.from({ length: n }, word).join(' ');

    const t0 = performance.now();
    for (let done = 0; done < ARTICLES; done += BATCH) {
      const n = Math.min(BATCH, ARTICLES - done);
      const cols = { id: [] as string[], video: [] as string[], lang: [] as string[], title: [] as string[], summary: [] as string[], category: [] as string[], tags: [] as string[], text: [] as string[], created: [] as string[] };
      for (let i = 0; i < n; i++) {
        const k = done + i;
        cols.id.push(`art_bench${k.toString().padStart(8, '0')}`);
        cols.video.push(`v${k.toString(36).padStart(10, '0')}`);
        cols.lang.push(LANGS[k % LANGS.length]!);
        cols.title.push(words(6));
        cols.summary.push(words(40));
        cols.category.push(ARTICLE_CATEGORIES[Math.floor(rnd() * ARTICLE_CATEGORIES.length)]!);
        cols.tags.push(`{${[word(), word(), word()].join(',')}}`);
        cols.text.push(words(120));
        cols.created.push(new Date(Date.UTC(2025, 0, 1) + k * 60_000).toISOString());
      }
      await sql`
        insert into articles (id, video_id, lang, length, source_lang, title, summary, category, tags, body, search_config, search_text, created_at)
        select u.id, u.video, u.lang, 'medium', u.lang, u.title, u.summary, u.category, u.tags::text[],
               jsonb_build_object('videoId', u.video, 'lang', u.lang, 'title', u.title, 'summary', u.summary, 'category', u.category, 'tags', u.tags::text[],
                                  'length', 'medium', 'sourceLang', u.lang, 'keyPoints', '[]'::jsonb, 'sections', '[]'::jsonb,
                                  'generator', jsonb_build_object('kind', 'extractive')),
               (case split_part(u.lang, '-', 1) when 'en' then 'english' when 'de' then 'german' when 'fr' then 'french'
                  when 'es' then 'spanish' when 'pt' then 'portuguese' else 'simple' end)::regconfig,
               u.text, u.created::timestamptz
        from unnest(${cols.id}::text[], ${cols.video}::text[], ${cols.lang}::text[], ${cols.title}::text[], ${cols.summary}::text[],
                    ${cols.category}::text[], ${cols.tags}::text[], ${cols.text}::text[], ${cols.created}::text[])
             as u(id, video, lang, title, summary, category, tags, text, created)`;
    }
    await sql`analyze articles`;
    const loadSeconds = (performance.now() - t0) / 1000;
    const [sizeRow] = await sql<{ size: string }[]>`select pg_size_pretty(pg_total_relation_size('articles')) as size`;
    const size = sizeRow!.size;

    // The mix: common and rare single words, two-word AND, a phrase, an exclusion, each alone and with filters,
    // plus filter-only listings (newest first) and a deep page.
    const common = vocab.slice(0, 20);
    const rare = vocab.slice(5_000, 20_000);
    const pick = (a: string[]) => a[Math.floor(rnd() * a.length)]!;
    const kinds: Record<string, () => Parameters<typeof searchArticles>[1]> = {
      'common word': () => ({ query: pick(common), page: 1, limit: 10 }),
      'rare word': () => ({ query: pick(rare), page: 1, limit: 10 }),
      'two words (AND)': () => ({ query: `${pick(common)} ${pick(vocab.slice(0, 500))}`, page: 1, limit: 10 }),
      '"quoted phrase"': () => ({ query: `"${pick(common)} ${pick(common)}"`, page: 1, limit: 10 }),
      'word -excluded': () => ({ query: `${pick(common)} -${pick(common)}`, page: 1, limit: 10 }),
      'word + category': () => ({ query: pick(common), category: pick([...ARTICLE_CATEGORIES]) as never, page: 1, limit: 10 }),
      'word + lang (de)': () => ({ query: pick(common), lang: 'de', page: 1, limit: 10 }),
      'word + category + lang (en)': () => ({ query: pick(vocab.slice(0, 200)), category: pick([...ARTICLE_CATEGORIES]) as never, lang: 'en', page: 1, limit: 20 }),
      'no query, category (newest first)': () => ({ category: pick([...ARTICLE_CATEGORIES]) as never, page: 1, limit: 10 }),
      'no query, lang (newest first)': () => ({ lang: 'fr', page: 1, limit: 10 }),
      'common word, page 100': () => ({ query: pick(common), page: 100, limit: 50 }),
    };
    const search = createPgArticleSearch(sql);
    const PER = Number(process.env.BENCH_SEARCHES ?? 60);
    for (const make of Object.values(kinds)) for (let i = 0; i < 3; i++) await searchArticles(search, make()); // warm the cache
    const rows: (string | number)[][] = [];
    const all: number[] = [];
    for (const [name, make] of Object.entries(kinds)) {
      const ms: number[] = [];
      let hits = 0;
      for (let i = 0; i < PER; i++) {
        const t = performance.now();
        const r = await searchArticles(search, make());
        ms.push(performance.now() - t);
        hits += r.total;
      }
      all.push(...ms);
      rows.push([name, fmt(percentile(ms, 50)), fmt(percentile(ms, 99)), Math.round(hits / PER)]);
    }
    rows.push(['**all of the above**', fmt(percentile(all, 50)), fmt(percentile(all, 99)), '']);

    // The same mix through REST (service in a child process), fewer requests.
    const account = await ensureAccount(sql, 'bench-search@example.com');
    const { key } = await createApiKey(sql, { accountId: account.id, name: 'bench', rateLimit: 1_000_000 });
    service = await startChild('src/main.ts', { DATABASE_URL: db.url, MODE: 'api' });
    const rest: number[] = [];
    const makers = Object.values(kinds);
    for (let i = 0; i < 20 * makers.length; i++) {
      const input = makers[i % makers.length]!();
      const q = new URLSearchParams(Object.entries(input).filter(([, v]) => v !== undefined).map(([k, v]) => [k, String(v)]));
      const t = performance.now();
      const r = await fetch(`${service.url}/api/v1/articles?${q}`, { headers: { authorization: `Bearer ${key}` } });
      await r.arrayBuffer();
      if (i >= makers.length) rest.push(performance.now() - t); // the first round warms up
      if (r.status !== 200) throw new Error(`search answered ${r.status}`);
    }

    return [
      {
        title: '4. Article search',
        markdown: [
          `${ARTICLES.toLocaleString('en')} generated articles (a 20,000-word generated vocabulary used with a skewed frequency; 6-word titles,`,
          `40-word summaries, 120-word section text, 17 categories, 8 languages) bulk-inserted with \`unnest\` in batches of ${BATCH.toLocaleString('en')}`,
          `in ${fmt(loadSeconds, 0)} s (table with indexes: ${size}). Each kind of query ${PER} times with random words, through`,
          '`searchArticles` + `createPgArticleSearch` (what the service runs), one at a time:',
          '',
          table(['query', 'p50 ms', 'p99 ms', 'mean matches'], rows),
          '',
          `Through REST (GET /api/v1/articles, service in a child process, the same mix, ${rest.length} requests): p50 ${fmt(percentile(rest, 50))} ms, p99 ${fmt(percentile(rest, 99))} ms.`,
        ].join('\n'),
      },
    ];
  } finally {
    await service?.stop();
    await sql.end();
    await db.drop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const s of await run()) console.log(`## ${s.title}\n\n${s.markdown}\n`);
}
