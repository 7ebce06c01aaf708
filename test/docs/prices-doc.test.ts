// Prices in the docs live only in the tables `npm run docs:generate` writes (test/docs/generated-tables.test.ts keeps
// them equal to src/domain/pricing/prices.ts): a price written anywhere else in a doc fails here, so no copy can
// drift. The paging figures the docs repeat are not generated: each is checked, phrase by phrase, against its constant.
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
import { generatedSpans } from '../../src/bridges/reference-tables.ts';

const read = (file: string) => readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8');

/** The README and every page of docs/ (docs/configuration.md's figures are settings: configuration-doc checks it). */
const DOCS = [
  'README.md',
  ...readdirSync(new URL('../../docs/', import.meta.url))
    .filter((f) => f.endsWith('.md') && f !== 'configuration.md')
    .map((f) => `docs/${f}`),
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

describe('prices and paging in the docs', () => {
  it.each(PAGING)('paging, %s: %s', (file, phrase, figures) => {
    const m = phrase.exec(read(file));
    expect(m, `${file} still says ${phrase}`).not.toBeNull();
    expect(m!.slice(1).map((n) => Number(n.replaceAll(',', '')))).toEqual(figures);
  });

  it('no price is written outside a generated table: link to docs/api.md#prices instead', () => {
    const unchecked: string[] = [];
    for (const file of DOCS) {
      const text = read(file);
      const generated = generatedSpans(text);
      for (const m of text.matchAll(PRICE_LIKE))
        if (!generated.some(([a, b]) => m.index >= a && m.index < b)) unchecked.push(`${file}: "${m[0]}"`);
    }
    expect(unchecked).toEqual([]);
  });
});
