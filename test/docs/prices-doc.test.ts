// The docs quote prices that src/domain/pricing/prices.ts defines: docs/api.md's operations table cell by cell
// (OPERATION_COSTS), and every other price the docs write, phrase by phrase. A price written in a doc that no
// phrase below checks fails too, so a new copy cannot drift unseen.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_SEARCH_LIMIT,
  MAX_SEARCH_LIMIT,
  MAX_SEARCH_WINDOW,
} from '../../src/domain/articles/search-articles.ts';
import { DEFAULT_HISTORY_LIMIT, MAX_HISTORY_LIMIT } from '../../src/domain/credits/credit-history.ts';
import { LISTING_CACHE_MINUTES } from '../../src/domain/listing/listing-cache.ts';
import { MAX_PAGE_SEGMENTS, MCP_PAGE_SEGMENTS } from '../../src/domain/transcripts/schemas.ts';
import {
  BATCH_VIDEO_PRICES,
  FRAME_PRICE,
  hourlyPrice,
  LISTING_PAGE_PRICE,
  OPERATION_COSTS,
  PER_STARTED_HOUR,
  STT_PRICE_PER_MINUTE,
  TRANSCRIPT_PRICE,
} from '../../src/domain/pricing/prices.ts';

const read = (file: string) => readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8');

/** The README and every page of docs/ (docs/configuration.md's figures are settings: configuration-doc checks it). */
const DOCS = [
  'README.md',
  ...readdirSync(new URL('../../docs/', import.meta.url))
    .filter((f) => f.endsWith('.md') && f !== 'configuration.md')
    .map((f) => `docs/${f}`),
];

const TABLE_HEADER = '| Method | Path | MCP tool | Cost |';

/** `POST /api/v1/batches` -> its Cost cell, for every row of the operations table. */
function operationsTable(markdown: string): Map<string, string> {
  const start = markdown.indexOf(TABLE_HEADER);
  expect(start, 'docs/api.md has the operations table').toBeGreaterThan(-1);
  const rows = new Map<string, string>();
  for (const row of markdown.slice(start).split('\n').slice(2)) {
    if (!row.startsWith('|')) break;
    // Escaped pipes (`a\|b`) are inside cells.
    const cells = row.split(/(?<!\\)\|/).map((c) => c.trim());
    const [method, pathCell, , cost] = cells.slice(1);
    const path = /`([^`?]+)/.exec(pathCell ?? '')?.[1];
    expect(path, `a row names its path: ${row}`).toBeDefined();
    rows.set(`${method} ${path}`, cost ?? '');
  }
  return rows;
}

const T = BATCH_VIDEO_PRICES.transcript;

/** Each price the docs write outside the table: the phrase, and what its numbers must be. */
const PHRASES: [file: string, phrase: RegExp, figures: number[]][] = [
  ['README.md', /(\d+) credits when its captions must be fetched/, [TRANSCRIPT_PRICE]],
  ['docs/api.md', /Price: (\d+) credits? per started minute of the audio/, [STT_PRICE_PER_MINUTE]],
  ['docs/api.md', /YouTube streams, (\d+) credits? each/, [FRAME_PRICE]],
  [
    'docs/api.md',
    /Price: (\d+) credits? per started hour of the video \(a 61-minute video costs (\d+)\), minimum (\d+)/,
    [PER_STARTED_HOUR, hourlyPrice(61 * 60), hourlyPrice(1)],
  ],
  ['docs/api.md', /Price: (\d+) credits? per page fetched from YouTube/, [LISTING_PAGE_PRICE]],
  ['docs/api.md', /`mode: native` \(the default\): (\d+) per video/, [T.native.perVideo]],
  ['docs/api.md', /`mode: auto`: (\d+) per video/, [T.auto.perVideo]],
  ['docs/api.md', /auto is captions only and the (\d+) is exact/, [T.native.perVideo]],
  ['docs/api.md', /a video without captions costs (\d+) credits? per started\s+minute/, [STT_PRICE_PER_MINUTE]],
  ['docs/api.md', /`mode: generate`: (\d+) per video/, [T.generate.perVideo]],
  [
    'docs/api.md',
    /article or translation: (\d+) per video \((\d+) for the transcript plus (\d+) for the first hour\)/,
    [BATCH_VIDEO_PRICES.article.perVideo, TRANSCRIPT_PRICE, hourlyPrice(1)],
  ],
  ['docs/mcp.md', /extracted from the captions for (\d+) credits/, [TRANSCRIPT_PRICE]],
  ['docs/mcp.md', /(\d+) credits? the first time that frame is captured/, [FRAME_PRICE]],
  ['docs/mcp.md', /`get_video_frame`, (\d+) credits? the first time/, [FRAME_PRICE]],
];

/** Paging rules the docs repeat: the schemas' limits and the listing cache. */
const PAGING: [file: string, phrase: RegExp, figures: number[]][] = [
  ['docs/api.md', /`offset` \(default 0\) and `limit` \(1-(\d+)\) select segments/, [MAX_PAGE_SEGMENTS]],
  ['docs/mcp.md', /lines in pages of (\d+) segments/, [MCP_PAGE_SEGMENTS]],
  ['docs/mcp.md', /line per segment \(up to ([\d,]+) segments/, [MAX_PAGE_SEGMENTS]],
  ['docs/api.md', /`limit` 1-(\d+) \(default (\d+)\)/, [MAX_SEARCH_LIMIT, DEFAULT_SEARCH_LIMIT]],
  ['docs/api.md', /a cursor goes on past the ([\d,]+) that page numbers reach/, [MAX_SEARCH_WINDOW]],
  ['docs/api.md', /a page fetched in the last (\d+) minutes/, [LISTING_CACHE_MINUTES]],
  ['docs/api.md', /`limit` \(1-(\d+), default (\d+)\) entries per page/, [MAX_HISTORY_LIMIT, DEFAULT_HISTORY_LIMIT]],
];

/** What reads as a price: a figure followed by credits, or by a unit a price is counted in. */
const PRICE_LIKE = /\b\d+ (credits?\b|per (started|page|frame|video)\b)/g;

describe('docs/api.md operations table', () => {
  const table = operationsTable(read('docs/api.md'));

  it('lists every priced operation once, and no other', () => {
    expect([...table.keys()].sort()).toEqual(Object.keys(OPERATION_COSTS).sort());
  });

  it('says what prices.ts says each costs', () => {
    for (const [operation, cost] of table) expect(cost, operation).toBe(OPERATION_COSTS[operation]);
  });
});

describe('prices and paging in the docs', () => {
  it.each(PHRASES)('%s: %s', (file, phrase, figures) => {
    const m = phrase.exec(read(file));
    expect(m, `${file} still says ${phrase}`).not.toBeNull();
    expect(m!.slice(1).map(Number)).toEqual(figures);
  });

  it.each(PAGING)('paging, %s: %s', (file, phrase, figures) => {
    const m = phrase.exec(read(file));
    expect(m, `${file} still says ${phrase}`).not.toBeNull();
    expect(m!.slice(1).map((n) => Number(n.replaceAll(',', '')))).toEqual(figures);
  });

  it('are all checked: no price is written outside the table and the phrases above', () => {
    const unchecked: string[] = [];
    for (const file of DOCS) {
      const text = read(file);
      const covered: [number, number][] = [];
      for (const [f, phrase] of PHRASES) {
        if (f !== file) continue;
        const m = phrase.exec(text);
        if (m) covered.push([m.index, m.index + m[0].length]);
      }
      if (file === 'docs/api.md') {
        const start = text.indexOf(TABLE_HEADER);
        covered.push([start, text.indexOf('\n\n', start)]);
      }
      for (const m of text.matchAll(PRICE_LIKE))
        if (!covered.some(([a, b]) => m.index >= a && m.index < b)) unchecked.push(`${file}: "${m[0]}"`);
    }
    expect(unchecked).toEqual([]);
  });
});
