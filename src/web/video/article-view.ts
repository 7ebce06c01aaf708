import type { api } from '../api.ts';
import { h } from '../dom.ts';
import { clock, date, youtubeAt } from '../format.ts';

type Article = Awaited<ReturnType<typeof api.articles.get.query>>;

export function articleView(a: Article, headingLevel: 'h1' | 'h2' = 'h2'): HTMLElement {
  const sub = headingLevel === 'h1' ? 'h2' : 'h3';
  return h(
    'article',
    { class: 'article', lang: a.lang },
    h(headingLevel, { tabindex: -1 }, a.title),
    h(
      'p',
      { class: 'meta' },
      `${a.category} · ${a.lang} · ${a.length} · ${date(a.createdAt)} · `,
      h('a', { href: `/service?v=${encodeURIComponent(a.videoId)}` }, 'Open the video here'),
      ' · ',
      h('a', { href: youtubeAt(a.videoId, 0), target: '_blank', rel: 'noopener noreferrer' }, 'Watch on YouTube'),
      a.generator.kind === 'extractive' ? ' · sentences picked from the transcript' : '',
    ),
    h('p', { class: 'summary' }, a.summary),
    a.keyPoints.length
      ? [h(sub, null, 'Key points'), h('ul', null, ...a.keyPoints.map((k) => h('li', null, k)))]
      : null,
    ...a.sections.map((s) =>
      h(
        'section',
        null,
        h(
          sub,
          null,
          s.heading,
          ' ',
          h(
            'a',
            { href: youtubeAt(a.videoId, s.start), target: '_blank', rel: 'noopener noreferrer', class: 'ts' },
            clock(s.start),
          ),
        ),
        ...s.text.split(/\n{2,}/).map((p) => h('p', null, p)),
      ),
    ),
    a.tags.length ? h('p', { class: 'tags' }, ...a.tags.map((t) => h('span', { class: 'tag' }, t))) : null,
  );
}
