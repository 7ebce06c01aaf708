import { api, explain } from '../api.ts';
import { busy, field, h, messageArea, replace } from '../dom.ts';
import { clock, date } from '../format.ts';
import type { Page } from '../router.ts';
import { articlePanel } from '../video/article-panel.ts';
import { framePanel } from '../video/frame-panel.ts';
import { transcriptPanel } from '../video/transcript-panel.ts';
import { translatePanel } from '../video/translate-panel.ts';
import type { VideoContext } from '../video/video-context.ts';

export const servicePage: Page = {
  title: 'Videos',
  auth: true,
  async render(main, _params, query) {
    const url = h('input', {
      type: 'text',
      name: 'url',
      required: true,
      placeholder: 'https://www.youtube.com/watch?v=…',
      autocomplete: 'off',
      value: query.get('v') ?? '',
    });
    const button = h('button', { type: 'submit', class: 'primary' }, 'Open video');
    const message = messageArea();
    const out = h('div', { class: 'video' });
    const form = h(
      'form',
      { class: 'card lookup' },
      field(
        'Video link or id',
        url,
        'A YouTube link in any form, or the 11-character video id. Looking a video up is free.',
      ),
      button,
    );

    const open = async (ref: string) => {
      message.clear();
      replace(out);
      // videoId takes a bare id or any YouTube URL.
      const input = { videoId: ref };
      try {
        const [info, tracks] = await busy(button, 'Looking up…', () =>
          Promise.all([api.videos.info.query(input), api.videos.tracks.query(input)]),
        );
        if (new URLSearchParams(location.search).get('v') !== info.videoId)
          history.replaceState(null, '', `/service?v=${encodeURIComponent(info.videoId)}`);
        const ctx: VideoContext = { info, tracks: tracks.tracks, transcript: null, onTranscript: () => {} };
        replace(out, videoHeader(info), transcriptPanel(ctx), framePanel(ctx), translatePanel(ctx), articlePanel(ctx));
      } catch (err) {
        message.error(explain(err));
      }
    };
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      void open(url.value.trim());
    });

    main.append(h('h1', { tabindex: -1 }, 'Videos'), form, message, out);
    if (query.get('v')) await open(query.get('v')!);
  },
};

function videoHeader(info: VideoContext['info']): HTMLElement {
  return h(
    'section',
    { class: 'card video-head', 'aria-label': 'Video' },
    info.thumbnail ? h('img', { src: info.thumbnail, alt: '', class: 'thumb', width: 320, height: 180 }) : null,
    h(
      'div',
      null,
      h('h2', { class: 'video-title' }, info.title),
      h(
        'dl',
        { class: 'facts' },
        h('dt', null, 'Channel'),
        h('dd', null, info.channelName ?? 'Unknown'),
        h('dt', null, 'Length'),
        h('dd', null, info.isLive ? 'Live now' : clock(info.duration)),
        h('dt', null, 'Published'),
        h('dd', null, date(info.publishDate)),
      ),
      h(
        'a',
        {
          href: `https://www.youtube.com/watch?v=${encodeURIComponent(info.videoId)}`,
          target: '_blank',
          rel: 'noopener noreferrer',
        },
        'Watch on YouTube',
      ),
    ),
  );
}
