import { api, explain } from '../api.ts';
import { busy, field, h, messageArea, replace } from '../dom.ts';
import { hourlyPrice, PER_STARTED_HOUR, plural } from '../format.ts';
import { pollJob } from '../poll-job.ts';
import { progressBar } from './progress.ts';
import { transcriptView } from './transcript-view.ts';
import type { VideoContext } from './video-context.ts';

type Message = ReturnType<typeof messageArea>;
type Languages = { source: HTMLInputElement; target: HTMLInputElement };

/** From (the default track's language) and into (the user's choice). */
function languageInputs(v: VideoContext): Languages {
  const defaultTrack = v.tracks.find((t) => t.isDefault) ?? v.tracks[0];
  const source = h('input', {
    type: 'text',
    name: 'sourceLang',
    value: defaultTrack?.lang ?? 'en',
    required: true,
    autocomplete: 'off',
    size: 8,
  });
  const target = h('input', {
    type: 'text',
    name: 'targetLang',
    placeholder: 'e.g. fr, de, pt-BR',
    required: true,
    autocomplete: 'off',
    size: 8,
  });
  return { source, target };
}

/** Asks for the translation, follows its job if it was queued, and shows it with what it cost. */
async function translateInto(v: VideoContext, langs: Languages, price: number, out: HTMLElement, message: Message) {
  const r = await api.transcripts.translate.mutate({
    videoId: v.info.videoId,
    sourceLang: langs.source.value.trim(),
    targetLang: langs.target.value.trim(),
  });
  let translation = r.translation;
  if (!translation) {
    const bar = progressBar('Translation progress');
    replace(out, bar);
    translation = (await pollJob(r.job.id, bar.set)).translation;
  }
  if (!translation) throw new Error('The translation finished without a result.');
  message.info(
    r.cached
      ? 'Served from storage: no credits charged.'
      : `Translated. ${plural(r.creditsCharged || price, 'credit')} charged.`,
  );
  replace(
    out,
    transcriptView(
      translation.videoId,
      translation.targetLang,
      translation.segments,
      `Translation into ${translation.targetLang}`,
    ),
  );
}

export function translatePanel(v: VideoContext): HTMLElement {
  const langs = languageInputs(v);
  const price = hourlyPrice(v.info.duration);
  const button = h('button', { type: 'submit', class: 'primary' }, 'Translate');
  const message = messageArea();
  const out = h('div');
  const form = h(
    'form',
    { class: 'inline' },
    field('From', langs.source, 'The fetched transcript’s language'),
    field('Into', langs.target, 'A language code'),
    h(
      'p',
      { class: 'cost' },
      `Costs ${plural(price, 'credit')} (${PER_STARTED_HOUR} per started hour of video); free if already translated. Fetch the transcript first.`,
    ),
    button,
  );
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    message.clear();
    try {
      await busy(button, 'Translating…', () => translateInto(v, langs, price, out, message));
    } catch (err) {
      replace(out);
      message.error(explain(err));
    }
  });
  return h(
    'section',
    { class: 'card', 'aria-labelledby': 'tr-h' },
    h('h2', { id: 'tr-h' }, 'Translate'),
    form,
    message,
    out,
  );
}
