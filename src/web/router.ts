import { session } from './session.ts';

export interface Page {
  title: string;
  /** Only for signed-in visitors; others are sent to sign in first. */
  auth: boolean;
  render(main: HTMLElement, params: Record<string, string>, query: URLSearchParams): void | Promise<void>;
}

interface Route {
  pattern: RegExp;
  keys: string[];
  page: Page;
}

const routes: Route[] = [];
let rendered = 0;
let onRender: (page: Page, path: string) => HTMLElement = () => document.body;

export function route(path: string, page: Page): void {
  const keys: string[] = [];
  const source = path.replace(/:(\w+)/g, (_, k: string) => {
    keys.push(k);
    return '([^/]+)';
  });
  const pattern = new RegExp(`^${source}/?$`);
  routes.push({ pattern, keys, page });
}

/** `layout` draws the frame around a page and returns the element the page renders into. */
export function startRouter(layout: (page: Page, path: string) => HTMLElement): void {
  onRender = layout;
  window.addEventListener('popstate', () => void render());
  // Same-origin links navigate without a reload; /docs and the API are real pages.
  document.addEventListener('click', (e) => {
    const a = (e.target as Element).closest?.('a');
    if (!a || e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    const href = a.getAttribute('href');
    if (
      !href?.startsWith('/') ||
      href.startsWith('//') ||
      a.target ||
      a.hasAttribute('download') ||
      /^\/(docs|api|mcp|trpc)\b/.test(href)
    )
      return;
    e.preventDefault();
    navigate(href);
  });
  void render();
}

export function navigate(href: string, replace = false): void {
  if (replace) history.replaceState(null, '', href);
  else history.pushState(null, '', href);
  void render();
}

async function render(): Promise<void> {
  const path = location.pathname;
  const found = routes.find((r) => r.pattern.test(path));
  if (!found) {
    const main = onRender({ title: 'Not found', auth: false, render: () => {} }, path);
    main.append(notFound());
    return;
  }
  if (found.page.auth && !session.current)
    return navigate(`/sign-in?next=${encodeURIComponent(path + location.search)}`, true);
  const m = found.pattern.exec(path)!;
  const params = Object.fromEntries(found.keys.map((k, i) => [k, decodeURIComponent(m[i + 1]!)]));
  document.title = `${found.page.title} · Subtext`;
  const main = onRender(found.page, path);
  await found.page.render(main, params, new URLSearchParams(location.search));
  // After a navigation, move focus to the new page's heading so keyboard and screen reader users start there;
  // on the first load the browser's own start (the skip link first) is right.
  if (rendered++ > 0) main.querySelector<HTMLElement>('h1')?.focus({ preventScroll: false });
}

function notFound(): HTMLElement {
  const el = document.createElement('div');
  el.innerHTML = '<h1 tabindex="-1">Page not found</h1><p><a href="/">Go to the start page</a></p>';
  return el;
}
