import { h, svg } from './dom.ts';

/** Bars of credits spent per day; an SVG with a text alternative (the numbers are in each bar's title). */
export function usageChart(days: { day: string; spent: number }[]): HTMLElement {
  const W = 600;
  const H = 160;
  const pad = { top: 10, bottom: 22, left: 28 };
  const max = Math.max(1, ...days.map((d) => d.spent));
  const bw = (W - pad.left) / Math.max(1, days.length);
  const y = (v: number) => pad.top + (H - pad.top - pad.bottom) * (1 - v / max);
  const total = days.reduce((n, d) => n + d.spent, 0);
  const chart = svg(
    'svg',
    {
      viewBox: `0 0 ${W} ${H}`,
      role: 'img',
      'aria-label': `Credits spent per day over the last ${days.length} days: ${total} in all, at most ${max} in a day.`,
      class: 'chart',
    },
    svg('line', { x1: pad.left, x2: W, y1: y(0), y2: y(0), class: 'axis' }),
    svg('text', { x: pad.left - 4, y: y(max) + 4, 'text-anchor': 'end', class: 'tick' }, String(max)),
    svg('text', { x: pad.left - 4, y: y(0), 'text-anchor': 'end', class: 'tick' }, '0'),
    ...days.map((d, i) =>
      svg(
        'rect',
        {
          x: pad.left + i * bw + 1,
          y: y(d.spent),
          width: Math.max(1, bw - 2),
          height: Math.max(0, y(0) - y(d.spent)),
          class: 'bar',
        },
        svg('title', null, `${d.day}: ${d.spent} credits`),
      ),
    ),
    ...days
      .map((d, i) => ({ d, i }))
      .filter(({ i }) => (i % 7 === 0 && days.length - 1 - i >= 4) || i === days.length - 1)
      // Centred under its bar, except the last, which ends at the chart's edge: centred, it was cut off there.
      .map(({ d, i }) =>
        i === days.length - 1
          ? svg('text', { x: W - 2, y: H - 6, 'text-anchor': 'end', class: 'tick' }, d.day.slice(5))
          : svg(
              'text',
              { x: pad.left + i * bw + bw / 2, y: H - 6, 'text-anchor': 'middle', class: 'tick' },
              d.day.slice(5),
            ),
      ),
  );
  return h(
    'figure',
    { class: 'chart-wrap' },
    chart,
    h('figcaption', null, `Credits spent per day (UTC), last ${days.length} days`),
  );
}
