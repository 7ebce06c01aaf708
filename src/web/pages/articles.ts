import { ARTICLE_CATEGORIES } from '../../domain/articles/categories.ts';
import { api, explain } from '../api.ts';
import { busy, field, h, messageArea, replace } from '../dom.ts';
import { date } from '../format.ts';
import { navigate, type Page } from '../router.ts';
import { articleView } from '../video/article-view.ts';

type Category = (typeof ARTICLE_CATEGORIES)[number];

/** Search snippets mark matches with <b> or <mark>; everything else in them is shown as text. */
function snippet(text: string): HTMLElement {
  const p = h('p', { class: 'snippet' });
  let marked = false;
  for (const part of text.split(/(<\/?(?:b|mark)>)/)) {
    if (/^<(b|mark)>$/.test(part)) marked = true;
    else if (/^<\/(b|mark)>$/.test(part)) marked = false;
    else if (part) p.append(marked ? h('mark', null, part) : part);
  }
  return p;
}

type SearchAnswer = Awaited<ReturnType<typeof api.articles.search.query>>;

/** The search form, filled from the URL; submitting navigates to the search's own URL. */
function searchForm(query: URLSearchParams): { form: HTMLFormElement; button: HTMLButtonElement } {
  const q = h('input', {
    type: 'search',
    name: 'query',
    value: query.get('query') ?? '',
    placeholder: 'Words or "a phrase"',
  });
  const category = h(
    'select',
    { name: 'category' },
    h('option', { value: '' }, 'Any'),
    ...ARTICLE_CATEGORIES.map((c) => h('option', { value: c, selected: query.get('category') === c }, c)),
  );
  const lang = h('input', {
    type: 'text',
    name: 'lang',
    value: query.get('lang') ?? '',
    placeholder: 'Any',
    size: 6,
    autocomplete: 'off',
  });
  const button = h('button', { type: 'submit', class: 'primary' }, 'Search');
  const form = h(
    'form',
    { class: 'card search', role: 'search' },
    field('Search', q),
    field('Category', category),
    field('Language', lang),
    button,
  );
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const params = new URLSearchParams();
    if (q.value.trim()) params.set('query', q.value.trim());
    if (category.value) params.set('category', category.value);
    if (lang.value.trim()) params.set('lang', lang.value.trim());
    navigate(`/articles?${params}`);
  });
  return { form, button };
}

/** One search hit: its title linked, its metadata, and its snippet or the start of its summary. */
function hit(a: SearchAnswer['results'][number]): HTMLElement {
  return h(
    'li',
    null,
    h('h2', null, h('a', { href: `/articles/${encodeURIComponent(a.id)}` }, a.title)),
    h('p', { class: 'meta' }, `${a.category} · ${a.lang} · ${date(a.createdAt)}`),
    a.snippet ? snippet(a.snippet) : h('p', null, a.summary.slice(0, 280) + (a.summary.length > 280 ? '…' : '')),
  );
}

/** The count, the hits and the pager of one page of results. */
function searchResults(r: SearchAnswer): HTMLElement[] {
  const link = (p: number) => {
    const params = new URLSearchParams(location.search);
    params.set('page', String(p));
    return `/articles?${params}`;
  };
  return [
    h(
      'p',
      { class: 'count' },
      r.total === 0
        ? 'No articles match.'
        : `${r.totalExact ? '' : 'More than '}${r.total} article${r.total === 1 ? '' : 's'}, page ${r.page} of ${r.totalPages}.`,
    ),
    h('ol', { class: 'hits' }, ...r.results.map((a) => hit(a))),
    h(
      'nav',
      { class: 'pager', 'aria-label': 'Pages' },
      r.page > 1 ? h('a', { href: link(r.page - 1) }, 'Previous page') : null,
      r.hasMore ? h('a', { href: link(r.page + 1) }, 'Next page') : null,
    ),
  ];
}

export const articlesPage: Page = {
  title: 'Articles',
  auth: true,
  async render(main, _params, query) {
    const { form, button } = searchForm(query);
    const message = messageArea();
    const results = h('div', { class: 'results', 'aria-live': 'polite' });
    const page = Math.max(1, Number(query.get('page')) || 1);
    main.append(
      h('h1', { tabindex: -1 }, 'Articles'),
      h('p', null, 'Every article generated on Subtext, by anyone. Searching is free.'),
      form,
      message,
      results,
    );
    try {
      const r = await busy(button, 'Searching…', () =>
        api.articles.search.query({
          query: query.get('query') || undefined,
          category: (query.get('category') || undefined) as Category | undefined,
          lang: query.get('lang') || undefined,
          page,
          limit: 10,
        }),
      );
      replace(results, ...searchResults(r));
    } catch (err) {
      message.error(explain(err));
    }
  },
};

export const articlePage: Page = {
  title: 'Article',
  auth: true,
  async render(main, params) {
    const message = messageArea();
    main.append(h('p', null, h('a', { href: '/articles' }, '← All articles')), message);
    try {
      const a = await api.articles.get.query({ id: params.id! });
      document.title = `${a.title} · Subtext`;
      main.append(articleView(a, 'h1'));
    } catch (err) {
      main.prepend(h('h1', { tabindex: -1 }, 'Article'));
      message.error(explain(err));
    }
  },
};
