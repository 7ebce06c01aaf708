import { h } from '../dom.ts';
import { clock, youtubeAt } from '../format.ts';
import { FILE_TYPES, toSrt, toText, toVtt } from '../../domain/transcripts/formats.ts';
import type { Segment } from '../../domain/video/schemas.ts';
import { download } from '../download-file.ts';

/** A transcript with clickable timestamps, a filter, and downloads made in the browser from the segments. */
export function transcriptView(videoId: string, lang: string, segments: Segment[], heading: string): HTMLElement {
  const base = `${videoId}.${lang}`;
  const filter = h('input', { type: 'search', placeholder: 'Find in transcript', 'aria-label': 'Find in transcript' });
  const list = h('ol', { class: 'segments' });
  const draw = () => {
    const q = filter.value.trim().toLowerCase();
    list.replaceChildren(
      ...segments
        .filter((s) => !q || s.text.toLowerCase().includes(q))
        .map((s) =>
          h(
            'li',
            null,
            h(
              'a',
              {
                href: youtubeAt(videoId, s.start),
                target: '_blank',
                rel: 'noopener noreferrer',
                class: 'ts',
                'aria-label': `${clock(s.start)}, open on YouTube`,
              },
              clock(s.start),
            ),
            h('span', { class: 'seg-text' }, s.text),
          ),
        ),
    );
  };
  filter.addEventListener('input', draw);
  draw();
  const dl = (label: string, ext: string, make: (s: Segment[]) => string, type: string) =>
    h(
      'button',
      { type: 'button', class: 'secondary', onClick: () => download(`${base}.${ext}`, make(segments), type) },
      label,
    );
  return h(
    'section',
    { class: 'card transcript', 'aria-label': heading },
    h('h3', null, heading),
    h(
      'div',
      { class: 'toolbar' },
      filter,
      h(
        'div',
        { class: 'downloads', role: 'group', 'aria-label': 'Download' },
        dl('Text', FILE_TYPES.text.extension, toText, FILE_TYPES.text.mediaType),
        dl('SRT', FILE_TYPES.srt.extension, toSrt, FILE_TYPES.srt.mediaType),
        dl('WebVTT', FILE_TYPES.vtt.extension, toVtt, FILE_TYPES.vtt.mediaType),
      ),
    ),
    h('p', { class: 'hint' }, `${segments.length} segments. Select a time to open the video there.`),
    list,
  );
}
