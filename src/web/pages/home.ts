import { h } from '../dom.ts';
import type { Page } from '../router.ts';
import { session } from '../session.ts';
import { credits, FRAME_PRICE, PER_STARTED_HOUR, TRANSCRIPT_PRICE } from '../format.ts';

export const homePage: Page = {
  title: 'Home',
  auth: false,
  render(main) {
    const signedIn = !!session.current;
    main.append(
      h('h1', { tabindex: -1 }, 'Transcripts, frames and articles from YouTube videos'),
      h(
        'p',
        { class: 'lead' },
        'Paste a video link to read its transcript with timestamps, download subtitles, capture frames, translate, and turn it into an article. Or give your scripts and AI agents the same powers through the REST API and MCP.',
      ),
      h(
        'div',
        { class: 'actions' },
        signedIn
          ? [
              h('a', { href: '/service', class: 'button primary' }, 'Open a video'),
              h('a', { href: '/connect', class: 'button secondary' }, 'Connect an app'),
            ]
          : [
              h('a', { href: '/sign-up', class: 'button primary' }, 'Create a free account'),
              h('a', { href: '/sign-in', class: 'button secondary' }, 'Sign in'),
            ],
      ),
      h(
        'ul',
        { class: 'features' },
        h(
          'li',
          null,
          h('strong', null, 'Transcripts'),
          ` — ${credits(TRANSCRIPT_PRICE)} per video and language; fetching it again is free.`,
        ),
        h('li', null, h('strong', null, 'Frames'), ` — ${credits(FRAME_PRICE)} per still image.`),
        h(
          'li',
          null,
          h('strong', null, 'Translations and articles'),
          ` — ${credits(PER_STARTED_HOUR)} per started hour of video.`,
        ),
        h('li', null, h('strong', null, 'Free every day'), ' — every account gets a daily allowance of credits.'),
      ),
    );
  },
};
