import { api, explain } from '../api.ts';
import { busy, field, h, messageArea } from '../dom.ts';
import { clock, credits, FRAME_PRICE, parseClock, plural } from '../format.ts';
import type { VideoContext } from './video-context.ts';

type Frame = Awaited<ReturnType<typeof api.frames.capture.mutate>>['frames'][number];

/** A captured frame, with its time, size and a download link. */
function frameFigure(v: VideoContext, f: Frame): HTMLElement {
  return h(
    'figure',
    { class: 'frame' },
    h('img', {
      src: f.url,
      alt: `Frame at ${clock(f.t)} of ${v.info.title}`,
      width: f.width,
      height: f.height,
      loading: 'lazy',
    }),
    h(
      'figcaption',
      null,
      `${clock(f.t)} · ${f.width}×${f.height}${f.source === 'storyboard' ? ' · low-resolution preview' : ''} · `,
      h('a', { href: f.url, download: `${v.info.videoId}-${f.t}s.jpg` }, 'Download'),
    ),
  );
}

function timeInput(): HTMLInputElement {
  return h('input', {
    type: 'text',
    name: 't',
    value: '0:00',
    inputmode: 'decimal',
    required: true,
    autocomplete: 'off',
  });
}

export function framePanel(v: VideoContext): HTMLElement {
  const time = timeInput();
  const width = h(
    'select',
    { name: 'width' },
    ...[320, 640, 1280].map((w) => h('option', { value: w, selected: w === 640 }, `${w} px`)),
  );
  const button = h('button', { type: 'submit', class: 'primary' }, 'Capture frame');
  const message = messageArea();
  const gallery = h('div', { class: 'frames' });
  const form = h(
    'form',
    { class: 'inline' },
    field('Time', time, `m:ss or seconds, up to ${clock(v.info.duration)}`),
    field('Width', width),
    h('p', { class: 'cost' }, `Costs ${credits(FRAME_PRICE)}; free if this frame was captured before.`),
    button,
  );
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    message.clear();
    const t = parseClock(time.value);
    if (t === null || (v.info.duration > 0 && t > v.info.duration)) {
      message.error(`Enter a time such as 1:30 or 90, within the video (${clock(v.info.duration)}).`);
      time.focus();
      return;
    }
    try {
      const r = await busy(button, 'Capturing…', () =>
        api.frames.capture.mutate({ videoId: v.info.videoId, t, width: Number(width.value) }),
      );
      const f = r.frames[0];
      if (!f) {
        message.error(r.failed[0]?.error.message ?? 'The frame could not be captured. Nothing was charged.');
        return;
      }
      message.info(
        f.cached ? 'Served from storage: no credits charged.' : `Charged ${plural(r.creditsCharged, 'credit')}.`,
      );
      gallery.prepend(frameFigure(v, f));
    } catch (err) {
      message.error(explain(err));
    }
  });
  return h(
    'section',
    { class: 'card', 'aria-labelledby': 'fp-h' },
    h('h2', { id: 'fp-h' }, 'Frames'),
    form,
    message,
    gallery,
  );
}
