import { api, explain } from '../api.ts';
import { h, messageArea } from '../dom.ts';
import { dateTime } from '../format.ts';
import type { Page } from '../router.ts';
import { usageChart } from '../usage-chart.ts';

const OPERATIONS: Record<string, string> = {
  subtitles: 'Transcript',
  frame: 'Frame',
  frames: 'Frames',
  translation: 'Translation',
  summary: 'Article',
  grant: 'Credits added',
};
const operationName = (op: string) => OPERATIONS[op] ?? op;

type Usage = Awaited<ReturnType<typeof api.usage.summary.query>>;

function balanceStats(c: Usage['credits']): HTMLElement {
  return h(
    'div',
    { class: 'stats' },
    stat('Balance', String(c.balance), 'credits you can spend now', 'balance'),
    stat('Free today', `${c.freeRemaining} of ${c.dailyAllowance}`, 'left of today’s free allowance', 'free'),
    stat('Purchased', String(c.purchasedBalance), 'credits that never expire', 'purchased'),
    stat('Allowance resets', inHours(c.resetsAt), `${dateTime(c.resetsAt)} (midnight UTC)`, 'resets'),
  );
}

/** One ledger entry: when, what (a refund named as such), the video linked, the credits signed. */
function ledgerRow(r: Usage['recent'][number]): HTMLElement {
  return h(
    'tr',
    null,
    h('td', null, dateTime(r.at)),
    h('td', null, r.kind === 'refund' ? `Refund: ${operationName(r.operation)}` : operationName(r.operation)),
    h('td', null, r.videoId ? h('a', { href: `/service?v=${encodeURIComponent(r.videoId)}` }, r.videoId) : '—'),
    h('td', { class: r.credits < 0 ? 'num minus' : 'num plus' }, r.credits > 0 ? `+${r.credits}` : String(r.credits)),
  );
}

function recentActivity(recent: Usage['recent']): HTMLElement {
  return h(
    'section',
    { class: 'card' },
    h('h2', null, 'Recent activity'),
    recent.length === 0
      ? h(
          'p',
          null,
          'Nothing yet. Fetch a transcript on the ',
          h('a', { href: '/service' }, 'Videos'),
          ' page or call the API.',
        )
      : h(
          'div',
          { class: 'table-wrap' },
          h(
            'table',
            { class: 'ledger' },
            h(
              'thead',
              null,
              h('tr', null, ...['When', 'What', 'Video', 'Credits'].map((t) => h('th', { scope: 'col' }, t))),
            ),
            h('tbody', null, ...recent.map((r) => ledgerRow(r))),
          ),
        ),
  );
}

export const usagePage: Page = {
  title: 'Credits & usage',
  auth: true,
  async render(main) {
    const message = messageArea();
    main.append(h('h1', { tabindex: -1 }, 'Credits & usage'), message);
    let u;
    try {
      u = await api.usage.summary.query({});
    } catch (err) {
      message.error(explain(err));
      return;
    }
    main.append(
      balanceStats(u.credits),
      h('section', { class: 'card' }, h('h2', null, 'Daily usage'), usageChart(u.daily)),
      recentActivity(u.recent),
    );
  },
};

function inHours(iso: string): string {
  const minutes = Math.max(0, Math.round((new Date(iso).getTime() - Date.now()) / 60_000));
  return minutes < 60 ? `in ${minutes} min` : `in ${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

function stat(label: string, value: string, note: string, key: string): HTMLElement {
  return h(
    'div',
    { class: 'stat', 'data-stat': key },
    h('div', { class: 'stat-label' }, label),
    h('div', { class: 'stat-value' }, value),
    h('div', { class: 'stat-note' }, note),
  );
}
