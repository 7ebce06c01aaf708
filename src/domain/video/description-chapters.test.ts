import { describe, expect, it } from 'vitest';
import { chaptersFromDescription } from './description-chapters.ts';

describe('chaptersFromDescription', () => {
  it('reads leading and trailing timestamps, with brackets and separators', () => {
    const description = [
      'A talk about things.',
      '',
      'Chapters:',
      '0:00 Intro',
      '(1:05) - The problem',
      'The answer – 12:30',
      '1:02:03 | Questions',
      'Thanks for watching! 5 stars',
    ].join('\n');
    expect(chaptersFromDescription(description, 4000)).toEqual([
      { title: 'Intro', start: 0 },
      { title: 'The problem', start: 65 },
      { title: 'The answer', start: 750 },
      { title: 'Questions', start: 3723 },
    ]);
  });

  it('follows YouTube’s rules: first at 0:00, at least three, each at least 10 s', () => {
    expect(chaptersFromDescription('0:05 a\n1:00 b\n2:00 c')).toEqual([]);
    expect(chaptersFromDescription('0:00 a\n1:00 b')).toEqual([]);
    expect(chaptersFromDescription('0:00 a\n0:05 b\n2:00 c')).toEqual([]);
    expect(chaptersFromDescription('0:00 a\n1:00 b\n2:00 c', 125)).toEqual([]);
    expect(chaptersFromDescription('0:00 a\n1:00 b\n2:00 c', 600)).toHaveLength(3);
  });

  it('ignores times that are not times and lines without a title', () => {
    expect(chaptersFromDescription('00:00 Start\n3:75 nope\n1:00\n2:00 Middle\n3:00 End')).toEqual([
      { title: 'Start', start: 0 },
      { title: 'Middle', start: 120 },
      { title: 'End', start: 180 },
    ]);
  });
});
