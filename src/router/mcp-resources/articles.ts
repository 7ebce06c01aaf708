// The article resource (read through get_article) and the links to it that article answers carry.
import type { Article } from '../../domain/articles/schemas.ts';
import type { RequestArticleOutput } from '../../domain/articles/request-article-schemas.ts';
import { articleMarkdown } from '../mcp-text/articles.ts';
import type { McpLink, McpResource } from '../mcp-projection.ts';
import { expandTemplate } from './uri-template.ts';

const TEMPLATE = 'subtext://articles/{id}';

export function articleLink(a: Article): McpLink {
  return {
    name: `article-${a.id}`,
    title: String(a.title ?? a.id),
    uri: expandTemplate(TEMPLATE, { id: a.id }),
    description: `Article about ${a.videoId} in ${a.lang}, sections with timestamps; free to read.`,
    mimeType: 'text/markdown',
  };
}

export const articleLinks = (a: Article): McpLink[] => [articleLink(a)];
/** A summary request links its article once it is made (not while the job runs). */
export const requestedArticleLinks = (o: RequestArticleOutput): McpLink[] =>
  o.article ? [articleLink(o.article)] : [];

export const articleResource: McpResource = {
  name: 'article',
  template: TEMPLATE,
  title: 'Article',
  mimeType: 'text/markdown',
  description:
    'An article made from a video (summarize_video, search_articles): title, summary, sections with timestamps, key points, as markdown. Free.',
  input: ({ id }) => ({ id }),
  content: (a: Article) => ({ mimeType: 'text/markdown', text: articleMarkdown(a) }),
};
