import { describe, expect, it } from 'vitest';
import { planChunks } from './plan-chunks.ts';
import { FRAME_SECONDS } from './ports.ts';
import { joinChunks, retimeSegments } from './retime-segments.ts';
import { speechPrice } from '../pricing/prices.ts';

/** Loud everywhere except silent windows [from, to) in seconds. */
function loudness(seconds: number, silences: Array<[number, number]>): Float32Array {
  const frames = new Float32Array(Math.ceil(seconds / FRAME_SECONDS)).fill(0.3);
  for (const [from, to] of silences) frames.fill(0, Math.floor(from / FRAME_SECONDS), Math.floor(to / FRAME_SECONDS));
  return frames;
}

describe('planChunks', () => {
  it('keeps audio no longer than a chunk whole', () => {
    expect(planChunks(loudness(25, []), 25, 30)).toEqual([{ start: 0, end: 25 }]);
    expect(planChunks(new Float32Array(0), 0, 30)).toEqual([]);
  });

  it('cuts inside the pause nearest the end of each chunk, never past the limit', () => {
    const chunks = planChunks(
      loudness(100, [
        [12, 13],
        [24, 25],
        [50, 51],
        [79, 80],
      ]),
      100,
      30,
    );
    expect(chunks.map((c) => [c.start, c.end])).toEqual([
      [0, 24.5],
      [24.5, 50.5],
      [50.5, 79.5],
      [79.5, 100],
    ]);
    for (const c of chunks) expect(c.end - c.start).toBeLessThanOrEqual(30);
  });

  it('without any pause, cuts at the limit and still covers everything', () => {
    const chunks = planChunks(loudness(95, []), 95, 30);
    expect(chunks[0]!.start).toBe(0);
    expect(chunks.at(-1)!.end).toBe(95);
    for (let i = 1; i < chunks.length; i++) expect(chunks[i]!.start).toBe(chunks[i - 1]!.end);
    for (const c of chunks) expect(c.end - c.start).toBeLessThanOrEqual(30);
  });
});

describe('retimeSegments / joinChunks', () => {
  it('moves segments onto the original timeline, clamped to their chunk, without overlap', () => {
    const a = retimeSegments(
      [
        { start: 0.5, end: 2, text: ' hello  there ' },
        { start: 2, end: 31, text: 'runs past the cut' },
      ],
      { start: 0, end: 24.5 },
    );
    const b = retimeSegments(
      [
        { start: 0, end: 1.25, text: 'next' },
        { start: 2, end: 3, text: '   ' },
      ],
      { start: 24.5, end: 50 },
    );
    expect(a).toEqual([
      { start: 0.5, end: 2, text: 'hello there' },
      { start: 2, end: 24.5, text: 'runs past the cut' },
    ]);
    expect(joinChunks([a, b])).toEqual([
      { start: 0.5, end: 2, text: 'hello there' },
      { start: 2, end: 24.5, text: 'runs past the cut' },
      { start: 24.5, end: 25.75, text: 'next' },
    ]);
  });
});

describe('speechPrice', () => {
  it('charges per started minute, at least one', () => {
    expect(speechPrice(0)).toBe(1);
    expect(speechPrice(59.9)).toBe(1);
    expect(speechPrice(60.0004)).toBe(1);
    expect(speechPrice(61)).toBe(2);
    expect(speechPrice(3600)).toBe(60);
  });
});
