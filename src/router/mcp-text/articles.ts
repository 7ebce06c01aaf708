// MCP text for articles: the article as markdown, the answer of POST /summaries, and article search.
import type { Article } from '../../domain/articles/schemas.ts';
import type { SearchArticlesOutput } from '../../domain/articles/search-articles.ts';
import type { RequestArticleOutput } from '../../domain/articles/request-article-schemas.ts';
import { clock } from '../../domain/transcripts/formats.ts';
import { chargedText, plural, pollText, truncate, watchUrl } from './shared.ts';

/** An article as markdown: title, summary, timed sections, key points, tags, category and how it was written. */
export function articleMarkdown(a: Article): string {
  const lines = [
    `# ${a.title}`,
    '',
    `Video: ${watchUrl(a.videoId)} · article ${a.id} · ${a.lang} (from the ${a.sourceLang} transcript) · ${a.length}`,
  ];
  lines.push('', a.summary.trim());
  for (const s of a.sections) lines.push('', `## ${s.heading} (${clock(s.start)}–${clock(s.end)})`, '', s.text.trim());
  if (a.keyPoints.length) lines.push('', '## Key points', '', ...a.keyPoints.map((k) => `- ${k}`));
  lines.push('', `Tags: ${a.tags.join(', ') || 'none'}`, `Category: ${a.category}`);
  lines.push(
    `Generator: ${a.generator.kind === 'llm' ? `language model${a.generator.model ? ` (${a.generator.model})` : ''}` : 'extractive (sentences picked from the transcript)'}`,
  );
  return lines.join('\n');
}

export function requestArticleText(o: RequestArticleOutput): string {
  if (!o.article) return pollText('Article', o.status, o.job);
  return `${articleMarkdown(o.article)}\n\n${chargedText(o.creditsCharged, o.cached && 'stored')}.`;
}

/** Search snippets mark matches with <b> (PostgreSQL) or <mark> (Typesense): markdown bold reads the same everywhere. */
const snippetText = (s: string) =>
  s
    .replace(/<\/?(b|mark)>/g, '**')
    .replace(/\s+/g, ' ')
    .trim();

export function articleSearchText(o: SearchArticlesOutput): string {
  const header =
    o.total === 0
      ? 'No articles match.'
      : `${o.totalExact ? plural(o.total, 'article') : `More than ${o.total.toLocaleString('en')} articles`} match; page ${o.page} of ${o.totalPages} (${o.limit} per page)${o.results.length ? '' : ': this page is past the end'}.`;
  const hits = o.results.map((r, i) => {
    const n = (o.page - 1) * o.limit + i + 1;
    const excerpt = r.snippet
      ? snippetText(r.snippet)
      : truncate(r.summary.replace(/\s+/g, ' ').trim(), 200, 'summary');
    return `${n}. ${r.id}: "${r.title}" (${r.lang}, ${r.category}, video ${r.videoId})\n   ${excerpt}`;
  });
  const lines = [header, ...hits];
  if (o.hasMore)
    lines.push(
      '',
      `More results: call search_articles again with the same query and filters and cursor="${o.nextCursor}". Read a whole article with get_article and its id.`,
    );
  else if (o.results.length) lines.push('', 'Read a whole article with get_article and its id.');
  return lines.join('\n');
}
