import { api, explain } from '../api.ts';
import { busy, field, h, messageArea, replace } from '../dom.ts';
import { hourlyPrice, PER_STARTED_HOUR, plural, TRANSCRIPT_PRICE } from '../format.ts';
import { pollJob } from '../poll-job.ts';
import { articleView } from './article-view.ts';
import { progressBar } from './progress.ts';
import type { VideoContext } from './video-context.ts';

type Message = ReturnType<typeof messageArea>;

/** Asks for the article, follows its job if it was queued, and shows it. */
async function writeArticle(
  v: VideoContext,
  lang: HTMLInputElement,
  length: HTMLSelectElement,
  out: HTMLElement,
  message: Message,
) {
  const input = {
    videoId: v.info.videoId,
    lang: lang.value.trim(),
    length: length.value as 'short' | 'medium' | 'long',
  };
  const r = await api.summaries.create.mutate(input);
  let article = r.article;
  if (!article) {
    const bar = progressBar('Article progress');
    replace(out, bar);
    article = (await pollJob(r.job.id, bar.set)).article;
  }
  if (!article) throw new Error('The article finished without a result.');
  message.info(
    r.cached
      ? 'This article already existed: no credits charged.'
      : 'Article written and saved; it is now searchable on the Articles page.',
  );
  replace(out, articleView(article));
}

export function articlePanel(v: VideoContext): HTMLElement {
  const lang = h('input', {
    type: 'text',
    name: 'lang',
    value: (navigator.language || 'en').split('-')[0] ?? 'en',
    required: true,
    autocomplete: 'off',
    size: 8,
  });
  const length = h(
    'select',
    { name: 'length' },
    h('option', { value: 'short' }, 'Short'),
    h('option', { value: 'medium', selected: true }, 'Medium'),
    h('option', { value: 'long' }, 'Long'),
  );
  const price = hourlyPrice(v.info.duration);
  const button = h('button', { type: 'submit', class: 'primary' }, 'Generate article');
  const message = messageArea();
  const out = h('div');
  const form = h(
    'form',
    { class: 'inline' },
    field('Language', lang, 'Language to write in'),
    field('Length', length),
    h(
      'p',
      { class: 'cost' },
      `Costs ${plural(price, 'credit')} (${PER_STARTED_HOUR} per started hour of video), plus ${TRANSCRIPT_PRICE} if the transcript was never fetched; free if this article exists.`,
    ),
    button,
  );
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    message.clear();
    try {
      await busy(button, 'Writing article…', () => writeArticle(v, lang, length, out, message));
    } catch (err) {
      replace(out);
      message.error(explain(err));
    }
  });
  return h(
    'section',
    { class: 'card', 'aria-labelledby': 'ar-h' },
    h('h2', { id: 'ar-h' }, 'Article'),
    form,
    message,
    out,
  );
}
