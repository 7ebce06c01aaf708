import { h } from '../dom.ts';

/** A labelled progress bar for background work, announced politely. */
export function progressBar(label: string): HTMLElement & { set(p: number, status: string): void } {
  const bar = h('progress', { max: 1, value: 0, 'aria-label': label });
  const text = h('span', null, 'Queued…');
  const el = h('div', { class: 'progress', role: 'status' }, bar, text);
  return Object.assign(el, {
    set(p: number, status: string) {
      bar.value = p;
      text.textContent = status === 'queued' ? 'Queued, waiting for capacity…' : `Working… ${Math.round(p * 100)}%`;
    },
  });
}
