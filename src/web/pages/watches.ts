import { api, explain } from '../api.ts';
import { busy, field, h, messageArea, replace } from '../dom.ts';
import { dateTime } from '../format.ts';
import type { Page } from '../router.ts';

type WatchRow = Awaited<ReturnType<typeof api.watches.list.query>>['watches'][number];
type Kind = 'channel' | 'playlist' | 'search';

/** The target of the form: a channel or playlist URL (or id), or a search query. */
function targetOf(kind: Kind, value: string) {
  const isUrl = /^https?:\/\//i.test(value);
  if (kind === 'channel') return { channel: isUrl ? { url: value } : { channelId: value } };
  if (kind === 'playlist') return { playlist: isUrl ? { url: value } : { playlistId: value } };
  return { search: { query: value } };
}

function describeTarget(w: WatchRow): string {
  const t = w.target;
  if (t.channel) return `Channel ${t.channel.url ?? t.channel.channelId} (${t.channel.tab ?? 'videos'})`;
  if (t.playlist) return `Playlist ${t.playlist.url ?? t.playlist.playlistId}`;
  return `Search “${t.search?.query}”`;
}

function watchForm(refresh: () => Promise<void>): HTMLFormElement {
  const kind = h(
    'select',
    { name: 'kind' },
    h('option', { value: 'channel' }, 'Channel'),
    h('option', { value: 'playlist' }, 'Playlist'),
    h('option', { value: 'search' }, 'Search'),
  );
  const value = h('input', { type: 'text', name: 'target', required: true, maxlength: 2048 });
  const interval = h('input', { type: 'number', name: 'interval', min: 1, placeholder: 'the service’s minimum' });
  const transcripts = h('input', { type: 'checkbox', name: 'transcripts' });
  const callback = h('input', { type: 'url', name: 'callbackUrl', placeholder: 'https://…' });
  const create = h('button', { type: 'submit', class: 'primary' }, 'Create watch');
  const message = messageArea();
  const form = h(
    'form',
    { class: 'card' },
    h('h2', null, 'Watch for new videos'),
    h('div', { class: 'row' }, field('Watch a', kind), field('URL, id or query', value)),
    h('div', { class: 'row' }, field('Check every (seconds)', interval), field('Callback URL (optional)', callback)),
    field('Fetch each new video’s transcript (charged per video)', transcripts),
    message,
    create,
  );
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    message.clear();
    try {
      await busy(create, 'Creating…', () =>
        api.watches.create.mutate({
          ...targetOf(kind.value as Kind, value.value.trim()),
          intervalSeconds: interval.value ? Number(interval.value) : undefined,
          transcripts: transcripts.checked,
          callbackUrl: callback.value || undefined,
        }),
      );
      form.reset();
      await refresh();
    } catch (err) {
      message.error(explain(err));
    }
  });
  return form;
}

function watchTable(rows: WatchRow[], refresh: () => Promise<void>, message: ReturnType<typeof messageArea>) {
  if (rows.length === 0) return h('p', null, 'No watches yet.');
  const heads = ['Watching', 'Status', 'Every', 'Last checked', 'Next check', ''];
  return h(
    'table',
    { class: 'watches' },
    h('caption', { class: 'visually-hidden' }, 'Your watches'),
    h('thead', null, h('tr', null, ...heads.map((t) => h('th', { scope: 'col' }, t)))),
    h(
      'tbody',
      null,
      ...rows.map((w) => {
        const remove = h('button', { type: 'button', class: 'danger', 'aria-label': `Delete ${w.id}` }, 'Delete');
        remove.addEventListener('click', async () => {
          try {
            await busy(remove, 'Deleting…', () => api.watches.delete.mutate({ id: w.id }));
            await refresh();
          } catch (err) {
            message.error(explain(err));
          }
        });
        return h(
          'tr',
          null,
          h('td', null, describeTarget(w), w.transcripts ? ' + transcripts' : ''),
          h('td', null, w.status === 'paused' ? `paused: ${w.pausedReason}` : 'active'),
          h('td', null, `${w.intervalSeconds} s`),
          h('td', null, w.lastCheckedAt ? dateTime(w.lastCheckedAt) : 'not yet'),
          h('td', null, w.status === 'active' ? dateTime(w.nextCheckAt) : '–'),
          h('td', null, remove),
        );
      }),
    ),
  );
}

export const watchesPage: Page = {
  title: 'Watches',
  auth: true,
  async render(main) {
    const message = messageArea();
    const list = h('div', { class: 'table-wrap' });
    const refresh = async () => {
      try {
        replace(list, watchTable((await api.watches.list.query({})).watches, refresh, message));
      } catch (err) {
        message.error(explain(err));
      }
    };
    main.append(
      h('h1', { tabindex: -1 }, 'Watches'),
      h(
        'p',
        null,
        'A watch checks a channel, a playlist or a search on a schedule and tells your callback URL about each new video (',
        h('code', null, 'watch.video_published'),
        ', and ',
        h('code', null, 'watch.transcript_ready'),
        ' when it fetches the transcript). Watching is free; transcripts cost what they cost on their own.',
      ),
      watchForm(refresh),
      h(
        'section',
        { class: 'card', 'aria-labelledby': 'watches-heading' },
        h('h2', { id: 'watches-heading' }, 'Your watches'),
        message,
        list,
      ),
    );
    await refresh();
  },
};
