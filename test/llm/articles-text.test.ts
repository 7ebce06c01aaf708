// What summarize_video, get_job, get_article and search_articles answer an agent as text: the article as markdown
// with timestamps, search hits one per line with paging facts. Structured content still carries the full output.
// A server without an LLM (extractive articles), so the articles are real but need no model.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mcpClient } from '../support/clients.ts';
import { fakeVideoSource } from '../support/fake-video-source.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';
import { seedVideo, spreadSegments } from './llm-fixtures.ts';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({}, { youtube: fakeVideoSource() });
});
afterAll(() => s?.close());

const bread = (k: number) =>
  [
    'Knead the dough with flour and water.',
    'Bake the bread in a hot oven until golden.',
    'Let the kitchen smell of fresh bread.',
  ][k % 3]!;
const clock = (t: number) => `${Math.floor(t / 60)}:${String(Math.floor(t % 60)).padStart(2, '0')}`;

describe('MCP text for articles', () => {
  it('summarize_video answers markdown: title, summary, timed sections, key points, tags, category, generator, cost', async () => {
    const { videoId } = await seedVideo(s.deps.sql, {
      duration: 900,
      title: 'Baking bread at home',
      segments: spreadSegments(900, 150, bread),
    });
    const { key } = await s.newKey({ credits: 1 });
    const client = await mcpClient(s.url, key);
    const result: any = await client.callTool({ name: 'summarize_video', arguments: { videoId, lang: 'en' } });
    expect(result.isError).toBeFalsy();
    const a = result.structuredContent.article;
    expect(result.structuredContent).toMatchObject({
      status: 'succeeded',
      creditsCharged: 1,
      article: { title: 'Baking bread at home', generator: { kind: 'extractive' } },
    });
    const text: string = result.content[0].text;
    expect(
      text.startsWith(
        `# Baking bread at home\n\nVideo: https://www.youtube.com/watch?v=${videoId} · article ${a.id} · en (from the en transcript) · medium\n\n${a.summary}\n\n## `,
      ),
    ).toBe(true);
    for (const sec of a.sections)
      expect(text).toContain(`## ${sec.heading} (${clock(sec.start)}–${clock(sec.end)})\n\n${sec.text}`);
    expect(text).toContain(`## Key points\n\n${a.keyPoints.map((k: string) => `- ${k}`).join('\n')}`);
    expect(text).toContain(
      `\nTags: ${a.tags.join(', ')}\nCategory: ${a.category}\nGenerator: extractive (sentences picked from the transcript)\n\n1 credit charged.`,
    );
    expect(text).not.toContain('{"'); // no JSON dump

    const again: any = await client.callTool({ name: 'summarize_video', arguments: { videoId, lang: 'en' } });
    expect(again.content[0].text.endsWith('0 credits charged (stored, free).')).toBe(true);

    // get_job on the request's job gives the same article, after a status line.
    const job: any = await client.callTool({ name: 'get_job', arguments: { id: result.structuredContent.job.id } });
    expect(job.structuredContent.result.article).toEqual(a);
    expect(job.content[0].text).toMatch(
      /^Job job_\S+ \(summary\) succeeded; 1 credit charged\.\n\n# Baking bread at home\n/,
    );

    const article: any = await client.callTool({ name: 'get_article', arguments: { id: a.id } });
    expect(article.content[0].text).toBe(text.slice(0, text.lastIndexOf('\n\n1 credit charged.')));
    await client.close();
  });

  it('search_articles: one line per hit with id, title and the snippet, then the paging facts', async () => {
    const { key } = await s.newKey({ credits: 3 });
    const client = await mcpClient(s.url, key);
    const ids: string[] = [];
    for (const title of ['Sourdough starter basics', 'Sourdough scoring patterns', 'Sourdough in a cold oven']) {
      const { videoId } = await seedVideo(s.deps.sql, {
        duration: 300,
        title,
        segments: spreadSegments(300, 30, (k) => `Sourdough step ${k}: feed the starter and wait.`),
      });
      const r: any = await client.callTool({ name: 'summarize_video', arguments: { videoId, lang: 'en' } });
      ids.push(r.structuredContent.article.id);
    }
    const page1: any = await client.callTool({ name: 'search_articles', arguments: { query: 'sourdough', limit: 2 } });
    expect(page1.structuredContent).toMatchObject({ total: 3, page: 1, totalPages: 2, hasMore: true });
    const lines: string[] = page1.content[0].text.split('\n');
    expect(lines[0]).toBe('3 articles match; page 1 of 2 (2 per page).');
    expect(lines[1]).toMatch(/^1\. art_\S+: "Sourdough [^"]+" \(en, \w+, video \S{11}\)$/);
    expect(lines[2]).toMatch(/^ {3}.*\*\*Sourdough\*\*/i); // the snippet, matches in bold
    expect(lines[3]).toMatch(/^2\. art_/);
    expect(lines.at(-1)).toBe(
      `More results: call search_articles again with the same query and filters and cursor="${page1.structuredContent.nextCursor}". Read a whole article with get_article and its id.`,
    );
    for (const hit of page1.structuredContent.results)
      expect(page1.content[0].text).toContain(`${hit.id}: "${hit.title}"`);

    const page2: any = await client.callTool({
      name: 'search_articles',
      arguments: { query: 'sourdough', limit: 2, page: 2 },
    });
    expect(page2.content[0].text).toMatch(/^3 articles match; page 2 of 2 \(2 per page\)\.\n3\. art_/);
    expect(page2.content[0].text).not.toContain('More results');
    const none: any = await client.callTool({ name: 'search_articles', arguments: { query: 'zzzunfindable' } });
    expect(none.content[0].text).toBe('No articles match.');
    await client.close();
  });
});
