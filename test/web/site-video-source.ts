// A VideoSource for website tests: the fake source's videos, a longer transcript (so articles have sentences to
// pick), and frames from a real generated video served on loopback.
import type { VideoSource } from '../../src/domain/ports.ts';
import { fakeVideoSource } from '../support/fake-video-source.ts';

const LINES = [
  'Welcome to this short lesson about bread.',
  'Good bread needs flour, water, salt and time.',
  'First we mix the flour and the water into a rough dough.',
  'Then the dough rests so the flour can absorb the water.',
  'Salt goes in after the rest, with a little more kneading.',
  'Fermentation gives the bread its flavour and its open crumb.',
  'We fold the dough every half hour to build strength.',
  'Shaping the loaf tightly helps it rise in the oven.',
  'A very hot oven with steam makes a crisp crust.',
  'Let the bread cool before cutting, or the crumb turns gummy.',
  'That is all you need to bake bread at home.',
  'Thanks for watching, and happy baking.',
];

export function siteVideoSource(streamUrl: string): VideoSource {
  const base = fakeVideoSource();
  return {
    getVideo: base.getVideo,
    async fetchTranscript() {
      return LINES.map((text, i) => ({ start: i * 5, end: i * 5 + 5, text }));
    },
    async getFrameSource() {
      return { kind: 'stream', url: streamUrl, width: 160, height: 90 };
    },
  };
}
