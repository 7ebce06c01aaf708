import { describe, expect, it } from 'vitest';

import { storyboardTile } from './storyboard-tile.ts';

const sb = {
  kind: 'storyboard' as const,
  sheetUrl: (i: number) => `https://i.ytimg.com/sb/x/M${i}.jpg`,
  thumbWidth: 160,
  thumbHeight: 90,
  columns: 5,
  rows: 5,
  interval: 2,
  count: 60,
};

describe('storyboardTile', () => {
  it.each([
    [0, { sheet: 0, x: 0, y: 0 }],
    [1.9, { sheet: 0, x: 0, y: 0 }],
    [2, { sheet: 0, x: 160, y: 0 }],
    [2 * 7, { sheet: 0, x: 2 * 160, y: 90 }],
    [2 * 24, { sheet: 0, x: 4 * 160, y: 4 * 90 }],
    [2 * 25, { sheet: 1, x: 0, y: 0 }],
    [2 * 59, { sheet: 2, x: 4 * 160, y: 90 }],
    [10_000, { sheet: 2, x: 4 * 160, y: 90 }], // past the end: the last thumbnail
  ])('t=%s', (t, tile) => {
    expect(storyboardTile(sb, t)).toEqual(tile);
  });
});
