// A few lines of DOM building instead of a framework: the pages are small forms and lists.
export type Child = Node | string | number | null | undefined | false | Child[];
// biome-ignore lint/suspicious/noExplicitAny: handlers read the event type they were attached for (input, submit, click)
type Handler = (event: any) => void;
export type Attrs = Record<string, string | number | boolean | null | undefined | Handler>;

function append(parent: Node, children: Child[]): void {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    if (Array.isArray(c)) append(parent, c);
    else parent.appendChild(typeof c === 'object' ? c : document.createTextNode(String(c)));
  }
}

function setAttrs(el: Element, attrs: Attrs | null | undefined): void {
  for (const [k, v] of Object.entries(attrs ?? {})) {
    if (typeof v === 'function') el.addEventListener(k.slice(2).toLowerCase(), v);
    else if (v === true) el.setAttribute(k, '');
    else if (v !== false && v !== null && v !== undefined) el.setAttribute(k, String(v));
  }
}

/** `h('button', { class: 'primary', onClick: go }, 'Go')` */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs?: Attrs | null,
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  setAttrs(el, attrs);
  append(el, children);
  return el;
}

export function svg(tag: string, attrs?: Attrs | null, ...children: Child[]): SVGElement {
  const el = document.createElementNS('http://www.w3.org/2000/svg', tag);
  setAttrs(el, attrs);
  append(el, children);
  return el;
}

export function replace(parent: Element, ...children: Child[]): void {
  parent.replaceChildren();
  append(parent, children);
}

let uid = 0;
const newId = (prefix: string) => `${prefix}-${++uid}`;

/** A labelled form field; the label is tied to the control by id. */
export function field(
  label: string,
  control: HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement,
  hint?: string,
): HTMLElement {
  control.id ||= newId('f');
  const hintEl = hint ? h('small', { id: `${control.id}-hint`, class: 'hint' }, hint) : null;
  if (hintEl) control.setAttribute('aria-describedby', hintEl.id);
  return h('div', { class: 'field' }, h('label', { for: control.id }, label), control, hintEl);
}

/** A region that announces its text to screen readers: errors as alerts, progress as status. */
export function messageArea(): HTMLElement & { error(text: string): void; info(text: string): void; clear(): void } {
  const el = h('div', { class: 'message', 'aria-live': 'polite' });
  return Object.assign(el, {
    error: (text: string) => replace(el, h('p', { class: 'error', role: 'alert' }, text)),
    info: (text: string) => replace(el, h('p', { class: 'info', role: 'status' }, text)),
    clear: () => el.replaceChildren(),
  });
}

/** Disables a button and shows that work is under way until `work` settles. */
export async function busy<T>(button: HTMLButtonElement, label: string, work: () => Promise<T>): Promise<T> {
  const before = button.textContent;
  button.disabled = true;
  button.setAttribute('aria-busy', 'true');
  button.replaceChildren(h('span', { class: 'spinner', 'aria-hidden': 'true' }), ` ${label}`);
  try {
    return await work();
  } finally {
    button.disabled = false;
    button.removeAttribute('aria-busy');
    button.textContent = before;
  }
}

/** A copy button for a text; falls back to selecting it where the clipboard API is unavailable (plain http). */
export function copyButton(text: () => string, label = 'Copy'): HTMLButtonElement {
  const button = h('button', { type: 'button', class: 'secondary copy' }, label);
  button.addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText(text());
      button.textContent = 'Copied';
    } catch {
      button.textContent = 'Select and copy manually';
    }
    setTimeout(() => (button.textContent = label), 2000);
  });
  return button;
}

/** A code block with its own copy button. */
export function codeBlock(code: string, label: string): HTMLElement {
  return h(
    'div',
    { class: 'code' },
    h('pre', { tabindex: 0, 'aria-label': label }, h('code', null, code)),
    copyButton(() => code, `Copy ${label.toLowerCase()}`),
  );
}
