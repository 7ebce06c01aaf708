// Bench 4: article search through REST GET /api/v1/articles (service in a child process, PostgreSQL backend) at
// 100,000 generated articles and again at 300,000 (BENCH_ARTICLES=100000,1000000 for the million): every kind of
// query alone, p50 and p99 with the machine's load average beside them, deep pages by cursor; and a small judged set
// (bench/search-judged.ts) for relevance. The corpus is generated inside PostgreSQL (generate_series, seeded random).
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { connect, type Sql } from '../db/client.ts';
import { ARTICLE_CATEGORIES } from '../src/domain/articles/categories.ts';
import { JUDGED_ARTICLES, JUDGED_QUERIES } from './search-judged.ts';
import { benchDatabase, fmt, percentile, startService, table, type BenchSection, type ChildServer } from './support.ts';
import { createApiKey, ensureAccount } from '../test/support/stores.ts';
import { keptDatabase } from './kept-database.ts';

const SIZES = (process.env.BENCH_ARTICLES ?? '100000,300000').split(',').map(Number);
const CHUNK = 50_000;
/** Connections generating articles and building indexes at once (BENCH_GEN_WORKERS). */
const WORKERS = Number(process.env.BENCH_GEN_WORKERS ?? 2);
const PER = Number(process.env.BENCH_SEARCHES ?? 40);
const LANGS = ['en', 'en', 'en', 'en-GB', 'de', 'fr', 'es', 'pt-BR'];
const VOCAB = 20_000;
/**
 * BENCH_SEARCH_DB=<name>: use (create if missing) and keep a database of that name instead of a throwaway one, so the
 * slow generation runs once: sizes already generated there are reused, and new migrations are applied to it.
 */
const KEEP_DB = process.env.BENCH_SEARCH_DB;

/** A generated vocabulary: pronounceable words, distinct by construction (i + 16 in base 16, a syllable per digit). */
export function vocabulary(n: number): string[] {
  const syll = [
    'ka',
    'lo',
    'mi',
    'ren',
    'to',
    'sa',
    'vek',
    'ul',
    'dor',
    'phi',
    'an',
    'tre',
    'mos',
    'qui',
    'zel',
    'bar',
  ];
  return Array.from({ length: n }, (_, i) => [...(i + 16).toString(16)].map((d) => syll[parseInt(d, 16)]).join(''));
}

/** Word n of the vocabulary, spelled in SQL the way vocabulary() spells it (an O(1) lookup, unlike a text[] subscript). */
const WORD_SQL = (n: string) =>
  `replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(translate(to_hex(${n} + 16), '0123456789abcdef', 'ABCDEFGHIJKLMNOP'), 'A', 'ka'), 'B', 'lo'), 'C', 'mi'), 'D', 'ren'), 'E', 'to'), 'F', 'sa'), 'G', 'vek'), 'H', 'ul'), 'I', 'dor'), 'J', 'phi'), 'K', 'an'), 'L', 'tre'), 'M', 'mos'), 'N', 'qui'), 'O', 'zel'), 'P', 'bar')`;

const CONFIG_SQL = `(case split_part(lang, '-', 1) when 'en' then 'english' when 'de' then 'german' when 'fr' then 'french'
  when 'es' then 'spanish' when 'pt' then 'portuguese' else 'simple' end)::regconfig`;

/** Runs of words drawn once per generation: an article's texts are several of them, picked at random. */
const POOL = 250_000;
/** Word n of the vocabulary drawn with probability skewed to low n (Zipf-like). */
const SKEWED = (vocabSize: string) => `floor(${vocabSize} * power(random(), 3))::int`;

/** `picks` (an int[] column) as its runs of 10 words joined in order. */
const runsOf = (picks: string) =>
  `(select string_agg(s, ' ' order by o) from unnest(${picks}) with ordinality p(r, o) join bench_runs using (r))`;

/**
 * The pools an article is made of: the vocabulary as a table, 250,000 runs of 10 skewed words and as many 6-word
 * titles. Spelling every word of every article in SQL (169 per article) made a million articles take hours; picking
 * 17 runs of a pool costs 17 index lookups, and the 250,000^12 orders of runs keep every text different.
 */
async function makePools(sql: Sql, vocabSize: number): Promise<void> {
  await sql`drop table if exists bench_words, bench_runs, bench_titles`;
  await sql`select setseed(0.5)`;
  await sql.unsafe(
    `create unlogged table bench_words as select n, ${WORD_SQL('n')} as w from generate_series(0, ${vocabSize - 1}) n`,
  );
  await sql`alter table bench_words add primary key (n)`;
  for (const [table, words] of [
    ['bench_runs', 10],
    ['bench_titles', 6],
  ] as const) {
    await sql.unsafe(
      `create unlogged table ${table} as select r, (select string_agg(w, ' ') from (
         select ${SKEWED(String(vocabSize))} as n from generate_series(1, ${words}) where r >= 0) x join bench_words using (n)) as s
       from generate_series(0, ${POOL - 1}) r`,
    );
    await sql.unsafe(`alter table ${table} add primary key (r)`);
  }
  await sql`analyze bench_words, bench_runs, bench_titles`;
}

/** Articles first..last, generated in SQL: word i of the vocabulary is drawn with probability skewed to low i (Zipf-like). */
export async function generate(sql: Sql, vocab: string[], first: number, last: number): Promise<void> {
  // A bulk load is much faster without the secondary indexes: drop them and build them again after (as a restore does).
  const indexes = await sql<{ name: string; def: string }[]>`
    select i.indexname as name, i.indexdef as def from pg_indexes i
    join pg_class c on c.relname = i.indexname join pg_index x on x.indexrelid = c.oid
    where i.tablename in ('articles', 'article_search') and not x.indisunique`;
  for (const i of indexes) await sql.unsafe(`drop index ${i.name}`);
  const t0 = performance.now();
  const phase = (name: string) =>
    console.error(`[search] generate ${first}-${last}: ${name} at ${fmt((performance.now() - t0) / 1000, 0)} s`);
  await makePools(sql, vocab.length);
  phase('pools');
  const chunks: [number, number][] = [];
  for (let from = first; from <= last; from += CHUNK) chunks.push([from, Math.min(last, from + CHUNK - 1)]);
  // Chunks and index builds run on WORKERS connections at once.
  await inParallel(chunks, async ([from, to]) => {
    await sql.begin(async (tx) => {
      // One seed per chunk (a fixed seed would make every chunk the same texts with other ids).
      await tx`select setseed(${Math.floor(from / CHUNK) / 1000})`;
      await tx.unsafe(
        `insert into articles (id, video_id, lang, length, source_lang, title, summary, category, tags, body, search_config, search_text, created_at)
         select id, video, lang, 'medium', lang, title, summary, category, tags,
                jsonb_build_object('videoId', video, 'lang', lang, 'title', title, 'summary', summary, 'category', category, 'tags', tags,
                                   'length', 'medium', 'sourceLang', lang, 'keyPoints', '[]'::jsonb, 'sections', '[]'::jsonb,
                                   'generator', jsonb_build_object('kind', 'extractive')),
                ${CONFIG_SQL}, text, created
         from (
           select 'art_bench' || lpad(g::text, 8, '0') as id, 'v' || lpad(to_hex(g), 10, '0') as video,
                  ($1::text[])[1 + g % 8] as lang, ($2::text[])[1 + floor(random() * $3)::int] as category,
                  '2025-01-01'::timestamptz + g * interval '1 minute' as created,
                  (select s from bench_titles where r = t) as title,
                  ${runsOf('summary')} as summary,
                  (select array_agg(w) from unnest(tag) n join bench_words using (n)) as tags,
                  ${runsOf('text')} as text
           from (
             select g, floor(random() * ${POOL})::int as t,
                    array(select floor(random() * ${POOL})::int from generate_series(1, 4) where g > 0) as summary,
                    array(select floor(random() * ${POOL})::int from generate_series(1, 12) where g > 0) as text,
                    array(select ${SKEWED('$4')} from generate_series(1, 3) where g > 0) as tag
             from generate_series(${from}, ${to}) g
           ) picks
         ) s`,
        [LANGS, [...ARTICLE_CATEGORIES], ARTICLE_CATEGORIES.length, vocab.length],
      );
    });
  });
  await sql`drop table bench_words, bench_runs, bench_titles`;
  phase('rows');
  // The slowest builds first (the phrase pairs, then the match index, then the other GIN indexes), each on its own
  // connection with room to sort in memory: started last, the pairs index was the whole tail of a run.
  const cost = (d: string) => (/\(pairs\)/.test(d) ? 0 : /match_idx/.test(d) ? 1 : /using gin/i.test(d) ? 2 : 3);
  await inParallel(
    indexes.map((i) => i.def).sort((a, b) => cost(a) - cost(b)),
    (def) =>
      sql.begin(async (tx) => {
        await tx`set local maintenance_work_mem = '1GB'`;
        await tx.unsafe(def);
        phase(def.slice(13, def.indexOf(' ON ')));
      }),
  );
}

/** Runs `work` over `items`, WORKERS at a time, in order of starting. */
async function inParallel<T>(items: T[], work: (item: T) => Promise<unknown>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(WORKERS, items.length) }, worker));
}

export async function insertJudged(sql: Sql): Promise<void> {
  for (const j of JUDGED_ARTICLES) {
    await sql.unsafe(
      `insert into articles (id, video_id, lang, length, source_lang, title, summary, category, tags, body, search_config, search_text, created_at)
       select $1, $2, $3::text, 'medium', $3::text, $4::text, $5::text, $6::text, '{}'::text[],
              jsonb_build_object('videoId', $2::text, 'lang', $3::text, 'title', $4::text, 'summary', $5::text, 'category', $6::text, 'tags', '[]'::jsonb,
                                 'length', 'medium', 'sourceLang', $3::text, 'keyPoints', '[]'::jsonb, 'sections', '[]'::jsonb,
                                 'generator', jsonb_build_object('kind', 'extractive')),
              ${CONFIG_SQL.replaceAll('lang', '$3::text')}, $7::text, '2024-06-01'::timestamptz`,
      [j.id, `judged_${j.id.slice(11)}`, j.lang, j.title, j.summary, j.category, j.text],
    );
  }
}

/** CPU time a process has used (user + system), in ms, from /proc (clock ticks of 10 ms). */
function cpuMsOf(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) * 10;
  } catch {
    return 0; // gone (a pooled connection closed)
  }
}

/** Stands for the cursor of page 99 of the same search, looked up when the request is made. */
const DEEP = 'page-99-cursor';

function goalVerdict(size: number, worstP99: number): string {
  const goal = size === 100_000 ? 50 : size === 1_000_000 ? 100 : undefined;
  return goal === undefined ? '' : ` — ${worstP99 <= goal ? 'met' : 'missed'}`;
}

export async function run(): Promise<BenchSection[]> {
  const db = KEEP_DB ? await keptDatabase(KEEP_DB) : await benchDatabase('search');
  const { sql } = connect(db.url, { max: Math.max(4, WORKERS) });
  let service: ChildServer | undefined;
  try {
    const vocab = vocabulary(VOCAB);
    let seed = 42;
    const rnd = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const pick = <T>(a: readonly T[]) => a[Math.floor(rnd() * a.length)]!;
    const common = vocab.slice(0, 20);
    const rare = vocab.slice(5_000, 20_000);
    const kinds: Record<string, () => Record<string, string | number>> = {
      'common word': () => ({ query: pick(common) }),
      'rare word': () => ({ query: pick(rare) }),
      'two words (AND)': () => ({ query: `${pick(common)} ${pick(vocab.slice(0, 500))}` }),
      '"quoted phrase"': () => ({ query: `"${pick(common)} ${pick(common)}"` }),
      'word -excluded': () => ({ query: `${pick(common)} -${pick(common)}` }),
      'word + category': () => ({ query: pick(common), category: pick(ARTICLE_CATEGORIES) }),
      'word + lang (de)': () => ({ query: pick(common), lang: 'de' }),
      'word + category + lang (en)': () => ({
        query: pick(vocab.slice(0, 200)),
        category: pick(ARTICLE_CATEGORIES),
        lang: 'en',
        limit: 20,
      }),
      'no query, category (newest first)': () => ({ category: pick(ARTICLE_CATEGORIES) }),
      'no query, lang (newest first)': () => ({ lang: 'fr' }),
      'common word, page 100 (limit 50) by cursor': () => ({ query: pick(common), limit: 50, cursor: DEEP }),
      'no query, category, page 100 (limit 50) by cursor': () => ({
        category: pick(ARTICLE_CATEGORIES),
        limit: 50,
        cursor: DEEP,
      }),
      'common word, page 100 (limit 50) by number (offset; for reference)': () => ({
        query: pick(common),
        page: 100,
        limit: 50,
      }),
    };

    // BENCH_SEARCH_SKIP=<names>: leave out the kinds whose name contains any of these (comma-separated), e.g. the
    // phrase on a kept database whose pairs index is not built yet.
    const skip = (process.env.BENCH_SEARCH_SKIP ?? '').split(',').filter(Boolean);
    for (const name of Object.keys(kinds)) if (skip.some((s) => name.includes(s))) delete kinds[name];
    const account = await ensureAccount(sql, 'bench-search@example.com');
    const { key } = await createApiKey(sql, { accountId: account.id, name: 'bench', rateLimit: 1_000_000_000 });
    // Page 100 by cursor: the cursor of page 99 of the same search, found by walking there once per search.
    const deep = new Map<string, string>();
    const get = async (asked: Record<string, string | number>) => {
      const { cursor, ...input } = asked;
      if (cursor === DEEP) input.cursor = await cursorOfPage99(input);
      const q = new URLSearchParams(Object.entries(input).map(([k, v]) => [k, String(v)]));
      const t = performance.now();
      const r = await fetch(`${service!.url}/api/v1/articles?${q}`, { headers: { authorization: `Bearer ${key}` } });
      const body = (await r.json()) as { total: number; results: { id: string }[]; nextCursor: string | null };
      if (r.status !== 200) throw new Error(`search answered ${r.status}: ${JSON.stringify(body).slice(0, 200)}`);
      return { ms: performance.now() - t, body };
    };
    const cursorOfPage99 = async (input: Record<string, string | number>) => {
      const id = JSON.stringify(input);
      let cursor = deep.get(id);
      if (cursor) return cursor;
      for (let page = 1; page < 100; page++) {
        const { body } = await get({ ...input, ...(cursor ? { cursor } : {}) });
        if (!body.nextCursor) throw new Error(`${id} has fewer than 100 pages`);
        cursor = body.nextCursor;
      }
      deep.set(id, cursor!);
      return cursor!;
    };

    const sections: string[] = [];
    // A kept database may hold generated articles already (ids art_bench00000001 up).
    let have = (await sql<{ n: number }[]>`select count(*)::int as n from articles where id like 'art_bench%'`)[0]!.n;
    const judgedRows: (string | number)[][] = [];
    const judgedSummary: string[] = [];
    for (const size of SIZES) {
      const t0 = performance.now();
      const reused = have >= size;
      if (have > size) throw new Error(`${KEEP_DB} holds ${have} generated articles, more than ${size}`);
      if (!reused) {
        await generate(sql, vocab, have + 1, size);
        const [judged] = await sql<
          { n: number }[]
        >`select count(*)::int as n from articles where id like 'art_judged%'`;
        if (judged!.n === 0) await insertJudged(sql);
        await sql`vacuum analyze articles, article_search`; // the narrow search table too (autovacuum may be off)
      }
      const loadSeconds = (performance.now() - t0) / 1000;
      have = size;
      const [sizeRow] = await sql<
        { size: string }[]
      >`select pg_size_pretty(pg_total_relation_size('articles')) as size`;
      await service?.stop();
      service = await startService({ DATABASE_URL: db.url, MODE: 'api' });
      deep.clear();
      // Walk to page 99 of every deep search once (not measured).
      for (const w of common) await cursorOfPage99({ query: w, limit: 50 });
      for (const c of ARTICLE_CATEGORIES) await cursorOfPage99({ category: c, limit: 50 });
      // Warm up: a round of every kind (JIT, connection pool, the database's buffers).
      for (let round = 0; round < 3; round++) for (const make of Object.values(kinds)) await get(make());

      const rows: (string | number)[][] = [];
      const all: number[] = [];
      let worst = 0;
      for (const [name, make] of Object.entries(kinds)) {
        const ms: number[] = [];
        let hits = 0;
        const loadBefore = loadavg()[0]!;
        // CPU of the service and of its PostgreSQL backends: what a search costs, whatever else the machine runs.
        const backends = async () =>
          (
            await sql<{ pid: number }[]>`
            select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`
          ).map((r) => r.pid);
        const cpuBefore = new Map([service!.pid, ...(await backends())].map((p) => [p, cpuMsOf(p)]));
        for (let i = 0; i < PER; i++) {
          const r = await get(make());
          ms.push(r.ms);
          hits += r.body.total;
        }
        const load = `${fmt(loadBefore, 2)}-${fmt(loadavg()[0]!, 2)}`;
        let cpu = 0;
        for (const p of new Set([...cpuBefore.keys(), ...(await backends())]))
          cpu += cpuMsOf(p) - (cpuBefore.get(p) ?? 0);
        if (!name.includes('for reference')) {
          all.push(...ms);
          worst = Math.max(worst, percentile(ms, 99));
        }
        rows.push([
          name,
          fmt(percentile(ms, 50)),
          fmt(percentile(ms, 99)),
          fmt(cpu / PER),
          load,
          Math.round(hits / PER),
        ]);
        console.error(
          `[search] ${size}: ${name}: p50 ${fmt(percentile(ms, 50))} p99 ${fmt(percentile(ms, 99))} cpu ${fmt(cpu / PER)} load ${load}`,
        );
      }
      rows.push([
        '**all of the above but the reference**',
        fmt(percentile(all, 50)),
        fmt(percentile(all, 99)),
        '',
        '',
        '',
      ]);

      // Relevance: where the judged article lands for each judged query (1 = first; "-" = not in the top 10).
      let firstCount = 0;
      let rr = 0;
      const ranks: (number | string)[] = [];
      for (const j of JUDGED_QUERIES) {
        const { body } = await get({
          query: j.query,
          ...(j.lang ? { lang: j.lang } : {}),
          ...(j.category ? { category: j.category } : {}),
          limit: 10,
        });
        const at = body.results.findIndex((r) => r.id === j.first);
        ranks.push(at < 0 ? '-' : at + 1);
        if (at === 0) firstCount++;
        if (at >= 0) rr += 1 / (at + 1);
      }
      if (judgedRows.length === 0)
        for (const j of JUDGED_QUERIES)
          judgedRows.push([
            `\`${j.query}\`${j.lang ? ` lang=${j.lang}` : ''}${j.category ? ` category=${j.category}` : ''}`,
            j.first.replace('art_judged_', ''),
          ]);
      ranks.forEach((r, i) => {
        judgedRows[i]!.push(r);
      });
      judgedSummary.push(
        `${size.toLocaleString('en')} articles: first for ${firstCount} of ${JUDGED_QUERIES.length}, mean reciprocal rank ${fmt(rr / JUDGED_QUERIES.length, 2)}`,
      );

      sections.push(
        [
          `### ${size.toLocaleString('en')} articles`,
          '',
          `${reused ? 'Reused from a kept database' : `Generated in ${fmt(loadSeconds, 0)} s`} (the table with its indexes: ${sizeRow!.size}). Each kind ${PER} times, one request at a time:`,
          '',
          table(['query', 'p50 ms', 'p99 ms', 'CPU ms per search', 'load (1-min, before-after)', 'mean matches'], rows),
          '',
          `**Worst p99 of any kind: ${fmt(worst)} ms** (target: <= 50 ms at 100,000, <= 100 ms at 1,000,000)${goalVerdict(size, worst)}.`,
        ].join('\n'),
      );
      console.error(`${sections.at(-1)}\n\n${judgedSummary.at(-1)}\n`); // as soon as measured: a long run may not finish
    }
    return [
      {
        title: '4. Article search',
        markdown: [
          'Generated articles (a 20,000-word generated vocabulary with a skewed frequency; 6-word titles, 40-word summaries,',
          '120-word section text, 3 tags, 17 categories, 8 languages; generated inside PostgreSQL with `generate_series`), searched',
          'through REST GET /api/v1/articles with a real key (service in a child process, MODE=api, the PostgreSQL backend).',
          'Limit 10 unless said. The client measures each request from sending to the last byte. Deep pages follow `nextCursor`:',
          'the cursor of page 99 of each search is found by walking there once before measuring; page 100 by number (an',
          "offset) is shown for reference and left out of the worst figure. The load column is the machine's 1-minute load",
          'average before and after each kind (2 cores; other work on the machine shows there). CPU ms per search is the',
          "service's and its PostgreSQL backends' CPU time (/proc, 10 ms ticks) over the kind, divided by the searches: what a",
          'search costs whatever else runs.',
          '',
          ...sections.flatMap((s) => [s, '']),
          '### Relevance: a judged set',
          '',
          `${JUDGED_ARTICLES.length} hand-written articles (bench/search-judged.ts) among the generated ones, half of them distractors that`,
          'use the query words only in passing; each query names the article that must come first. Rank of that article in the answer:',
          '',
          table(['query', 'must be first', ...SIZES.map((s) => `rank at ${s.toLocaleString('en')}`)], judgedRows),
          '',
          ...judgedSummary.map((s) => `- ${s}`),
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
