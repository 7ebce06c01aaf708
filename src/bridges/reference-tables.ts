// The reference tables of the docs, written from the code they describe: the operations (the router's procedures
// and the plain routes beside them), the error codes (src/router/error-table.ts), the MCP tools (their annotations as
// tools/list answers them), the prices (src/domain/pricing/prices.ts) and the article categories. Each table sits in a doc between
// `<!-- generated:NAME -->` and `<!-- /generated:NAME -->`; `npm run docs:generate` rewrites what is between, and
// test/docs/generated-tables.test.ts fails while a committed doc differs from what this writes.
import { ARTICLE_CATEGORIES } from '../domain/articles/categories.ts';
import { ERROR_CODES } from '../domain/errors.ts';
import { LISTING_CACHE_MINUTES } from '../domain/listing/listing-cache.ts';
import {
  BATCH_VIDEO_PRICES,
  FRAME_PRICE,
  hourlyPrice,
  LISTING_PAGE_PRICE,
  OPERATION_COSTS,
  PER_STARTED_HOUR,
  SPEECH_PRICE_PER_MINUTE,
  TRANSCRIPT_PRICE,
} from '../domain/pricing/prices.ts';
import { ERROR_TABLE } from '../router/error-table.ts';
import { appRouter } from '../router/index.ts';
import { sessionProcedure } from '../router/session-procedure.ts';
import { keyedProcedure } from '../router/trpc.ts';
import { mcpTools } from './mcp/tools.ts';
import { buildOpenApiDocument } from './openapi.ts';
import { EXTRA_REST_ROUTES } from './openapi-extra-paths.ts';
import { listProcedures, type ProcedureEntry } from './procedures.ts';
import { REST_PREFIX } from './rest.ts';

/** The docs that carry generated tables, and the tables each must carry. */
const OPEN = '<!-- generated:';

export const GENERATED_DOCS: Record<string, TableName[]> = {
  'docs/api.md': ['operations', 'prices', 'categories', 'batch-prices', 'errors'],
  'docs/mcp.md': ['tools'],
};

type TableName = keyof typeof TABLES;

const TABLES = {
  operations: operationsTable,
  prices: pricesTable,
  categories: () => `${ARTICLE_CATEGORIES.map(code).join(', ')}\n`,
  'batch-prices': batchPricesTable,
  errors: errorsTable,
  tools: toolsTable,
};

interface Block {
  name: string;
  /** Where the block starts, where its opening line ends, where its closing marker starts, where it ends. */
  start: number;
  body: number;
  close: number;
  end: number;
}

/** The generated blocks of a doc, scanned with indexOf (one regex with a backreference is polynomial: test/security). */
function blocks(file: string, text: string): Block[] {
  const found: Block[] = [];
  for (let start = text.indexOf(OPEN); start !== -1; ) {
    const nameEnd = text.indexOf(' -->\n', start);
    const name = text.slice(start + OPEN.length, nameEnd === -1 ? start : nameEnd);
    // Prose that mentions a marker (docs/contributing.md) is not one: a marker is the name alone on its line.
    if (!/^[a-z-]+$/.test(name)) {
      start = text.indexOf(OPEN, start + OPEN.length);
      continue;
    }
    const marker = `<!-- /generated:${name} -->`;
    const close = text.indexOf(marker, nameEnd);
    if (close === -1) throw new Error(`${file}: <!-- generated:${name} --> is never closed`);
    found.push({ name, start, body: nameEnd + 5, close, end: close + marker.length });
    start = text.indexOf(OPEN, close + marker.length);
  }
  return found;
}

/** The doc with every generated block rewritten; throws when a block is unknown or one the doc must carry is missing. */
export function withGeneratedTables(file: string, text: string): string {
  const expected = GENERATED_DOCS[file] ?? [];
  const seen = new Set<string>();
  let out = '';
  let at = 0;
  for (const b of blocks(file, text)) {
    if (!(b.name in TABLES)) throw new Error(`${file}: no generated table is called "${b.name}"`);
    seen.add(b.name);
    out += `${text.slice(at, b.body)}${TABLES[b.name as TableName]()}${text.slice(b.close, b.end)}`;
    at = b.end;
  }
  out += text.slice(at);
  const missing = expected.filter((n) => !seen.has(n));
  if (missing.length)
    throw new Error(`${file} lacks ${missing.map((n) => `<!-- generated:${n} --> ... <!-- /generated:${n} -->`)}`);
  return out;
}

/** Where generated text starts and ends in a doc, so a check of hand-written prose can skip it. */
export function generatedSpans(text: string): [number, number][] {
  return blocks('doc', text).map((b) => [b.start, b.end]);
}

const cell = (s: string) => s.replaceAll('|', '\\|').replaceAll('\n', ' ');
const table = (head: string[], rows: string[][]) =>
  [
    `| ${head.join(' | ')} |`,
    `|${head.map(() => '---').join('|')}|`,
    ...rows.map((r) => `| ${r.map(cell).join(' | ')} |`),
  ]
    .join('\n')
    .concat('\n');
const code = (s: string | undefined) => (s ? `\`${s}\`` : '');

type Auth = 'key' | 'session' | 'none';

/** Which base a procedure was built on, read from its middlewares (keyedProcedure and sessionProcedure add one each). */
function authOf(entry: ProcedureEntry): Auth {
  const own = (p: unknown) => (p as { _def: { middlewares: unknown[] } })._def.middlewares;
  const middlewares = own(entry.procedure);
  if (middlewares.includes(own(keyedProcedure).at(-1))) return 'key';
  if (middlewares.includes(own(sessionProcedure).at(-1))) return 'session';
  return 'none';
}

/** What a procedure costs: its OPERATION_COSTS entry, free without one. */
function priceOf(procedure: string): string {
  return OPERATION_COSTS[procedure] ?? 'free';
}

function checkPricedProcedures(entries: ProcedureEntry[]) {
  const known = new Set(entries.map((e) => e.path));
  const stray = Object.keys(OPERATION_COSTS).filter((p) => !known.has(p));
  if (stray.length) throw new Error(`OPERATION_COSTS names no procedure: ${stray.join(', ')}`);
  // A procedure that can answer 402 charges something: a forgotten price would read "free" in the docs.
  const unpriced = entries.filter((e) => e.meta.errors?.includes('INSUFFICIENT_CREDITS') && !OPERATION_COSTS[e.path]);
  if (unpriced.length)
    throw new Error(`can answer INSUFFICIENT_CREDITS but has no OPERATION_COSTS entry: ${unpriced.map((e) => e.path)}`);
}

/** The query parameters the OpenAPI document lists for an operation: `?lang=&format=`. */
function queryOf(doc: ReturnType<typeof buildOpenApiDocument>, method: string, path: string): string {
  const params: { name: string; in: string }[] = doc.paths[path]?.[method.toLowerCase()]?.parameters ?? [];
  const names = params.filter((p) => p.in === 'query').map((p) => `${p.name}=`);
  return names.length ? `?${names.join('&')}` : '';
}

function operationsTable(): string {
  const entries = listProcedures(appRouter);
  checkPricedProcedures(entries);
  const doc = buildOpenApiDocument('http://localhost');
  const rows: string[][] = [];
  for (const entry of entries) {
    const { openapi, mcp } = entry.meta;
    const routes = [
      ...(openapi ? [{ method: openapi.method, path: openapi.path }] : []),
      ...EXTRA_REST_ROUTES.filter((r) => r.procedure === entry.path),
    ];
    const tool = mcp ? `${code(mcp.name)}${mcp.image ? ' (an image)' : ''}` : '';
    const row = (method: string, path: string, withTool: boolean) => [
      method,
      path ? code(`${REST_PREFIX}${path}${queryOf(doc, method, path)}`) : '',
      code(entry.path),
      withTool ? tool : '',
      authOf(entry),
      priceOf(entry.path),
    ];
    if (routes.length === 0) rows.push(row('', '', true));
    for (const [i, r] of routes.entries()) rows.push(row(r.method, r.path, i === 0));
  }
  return table(['Method', 'Path', 'tRPC', 'MCP tool', 'Auth', 'Price'], rows);
}

function pricesTable(): string {
  return table(
    ['What', 'Credits', 'In prices.ts'],
    [
      ['A transcript extracted from a video’s captions', `${TRANSCRIPT_PRICE}`, code('TRANSCRIPT_PRICE')],
      [
        'Speech-to-text, per started minute of the audio decoded (61 s: 2 minutes)',
        `${SPEECH_PRICE_PER_MINUTE}`,
        `${code('SPEECH_PRICE_PER_MINUTE')}, ${code('speechPrice')}`,
      ],
      ['A frame newly captured', `${FRAME_PRICE}`, code('FRAME_PRICE')],
      [
        `A translation or an article, per started hour of the video (61 minutes: ${hourlyPrice(61 * 60)}; minimum ${hourlyPrice(1)})`,
        `${PER_STARTED_HOUR}`,
        `${code('PER_STARTED_HOUR')}, ${code('hourlyPrice')}`,
      ],
      [
        `A listing page fetched from YouTube (one fetched in the last ${LISTING_CACHE_MINUTES} minutes, by anyone, is free)`,
        `${LISTING_PAGE_PRICE}`,
        code('LISTING_PAGE_PRICE'),
      ],
      ['Anything stored already, and anything that fails', '0', ''],
    ],
  );
}

function batchPricesTable(): string {
  const bound = (p: { perVideo: number; exact: boolean }) =>
    p.exact ? 'an upper bound' : 'a stated figure a video may exceed';
  const T = BATCH_VIDEO_PRICES.transcript;
  const rows: [string, { perVideo: number; exact: boolean }, string][] = [
    ['transcript, `mode: native` (the default)', T.native, 'captions only'],
    [
      'transcript, `mode: auto`',
      T.auto,
      'counted as captions, which most videos have; exact where there is no speech-to-text',
    ],
    ['transcript, `mode: generate`', T.generate, 'one minute of audio'],
    ['article', BATCH_VIDEO_PRICES.article, 'the transcript plus the first hour'],
    ['translation', BATCH_VIDEO_PRICES.translation, 'the transcript plus the first hour'],
  ];
  return table(
    ['Operation', 'Counted per video', 'Which is', 'Because'],
    rows.map(([op, p, why]) => [op, `${p.perVideo}`, bound(p), why]),
  );
}

function errorsTable(): string {
  return table(
    ['Code', 'HTTP', 'tRPC', 'Retry-After', 'When'],
    ERROR_CODES.map((c) => {
      const e = ERROR_TABLE[c];
      return [code(c), `${e.status}`, code(e.trpc), e.retryAfter ? `${e.retryAfter} s` : '', e.description];
    }),
  );
}

function toolsTable(): string {
  const yes = (b: boolean | undefined) => (b ? 'yes' : '');
  return table(
    ['Tool', 'tRPC', 'Read-only', 'Idempotent', 'Destructive', 'Open world', 'Price'],
    mcpTools().map(({ name, entry, config: { annotations: a } }) => [
      code(name),
      code(entry.path),
      yes(a.readOnlyHint),
      yes(a.idempotentHint),
      yes(a.destructiveHint),
      yes(a.openWorldHint),
      priceOf(entry.path),
    ]),
  );
}
