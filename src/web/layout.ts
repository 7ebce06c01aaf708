import { api, explain } from './api.ts';
import { h, replace } from './dom.ts';
import { navigate, type Page } from './router.ts';
import { session } from './session.ts';

const SIGNED_IN_LINKS: [string, string][] = [
  ['/service', 'Videos'],
  ['/articles', 'Articles'],
  ['/keys', 'API keys'],
  ['/usage', 'Credits & usage'],
  ['/watches', 'Watches'],
  ['/webhooks', 'Webhooks'],
  ['/connect', 'Connect'],
];

/** Header, navigation and the main landmark; returns the empty main element for the page. */
export function layout(page: Page, path: string): HTMLElement {
  const root = document.getElementById('app')!;
  const links = session.current
    ? SIGNED_IN_LINKS
    : ([
        ['/sign-in', 'Sign in'],
        ['/sign-up', 'Sign up'],
      ] as [string, string][]);
  const current = (href: string) => (path === href || path.startsWith(`${href}/`) ? 'page' : null);
  const signOut = h('button', { type: 'button', class: 'link' }, 'Sign out');
  signOut.addEventListener('click', async () => {
    try {
      await api.account.signOut.mutate({});
    } catch (err) {
      alert(explain(err));
      return;
    }
    session.current = null;
    navigate('/sign-in');
  });
  const main = h('main', { id: 'main', class: `page page-${page.title.toLowerCase().replace(/[^a-z]+/g, '-')}` });
  replace(
    root,
    h('a', { href: '#main', class: 'skip' }, 'Skip to content'),
    h(
      'header',
      { class: 'top' },
      h('a', { href: '/', class: 'brand' }, 'Subtext'),
      h(
        'nav',
        { 'aria-label': 'Main' },
        h(
          'ul',
          null,
          ...links.map(([href, label]) => h('li', null, h('a', { href, 'aria-current': current(href) }, label))),
          h('li', null, h('a', { href: '/docs' }, 'API docs')),
        ),
      ),
      session.current
        ? h('div', { class: 'who' }, h('span', { class: 'email' }, session.current.account.email), signOut)
        : null,
    ),
    main,
    h(
      'footer',
      null,
      h(
        'p',
        null,
        'Subtext: transcripts, frames, translations and articles for YouTube videos, on the web, over REST and over MCP.',
      ),
    ),
  );
  return main;
}
