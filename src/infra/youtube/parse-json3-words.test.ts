// Word timing in json3 auto-captions. No recorded track with word offsets exists in the shared fixtures (their
// SOURCES.md says so): the tracks here are built by hand in the documented shape of YouTube's ASR json3 (a window
// event, then rolling events whose segs are one word each, `tOffsetMs` from the event's start on every seg but the
// first, `acAsrConf` on each, and `aAppend` newline events between), and in malformed variants the parser must survive.
import { describe, expect, it } from 'vitest';
import { parseJson3 } from './parse-json3.ts';
import { parseTimedTextXml } from './parse-srv3.ts';

const track = (events: unknown[]) => JSON.stringify({ wireMagic: 'pb3', pens: [{}], events });

const ASR = track([
  { tStartMs: 0, dDurationMs: 61000, id: 1, wpWinPosId: 1, wsWinStyleId: 1 },
  {
    tStartMs: 2399,
    dDurationMs: 6801,
    wWinId: 1,
    segs: [
      { utf8: 'hey', acAsrConf: 0 },
      { utf8: ' in', tOffsetMs: 201, acAsrConf: 0 },
      { utf8: " today's", tOffsetMs: 321, acAsrConf: 0 },
      { utf8: ' lesson', tOffsetMs: 721, acAsrConf: 0 },
    ],
  },
  { tStartMs: 4430, dDurationMs: 4770, wWinId: 1, aAppend: 1, segs: [{ utf8: '\n' }] },
  {
    tStartMs: 4440,
    dDurationMs: 6239,
    wWinId: 1,
    segs: [
      { utf8: 'you', acAsrConf: 0 },
      { utf8: ' finally', tOffsetMs: 319, acAsrConf: 0 },
      { utf8: ' think', tOffsetMs: 1120, acAsrConf: 0 },
    ],
  },
  { tStartMs: 9000, dDurationMs: 1500, wWinId: 1, segs: [{ utf8: '[Music]' }] },
]);

describe('json3 word offsets', () => {
  const segments = parseJson3(ASR);

  it('gives every segment its words, each inside the segment and in order', () => {
    expect(segments.map((s) => s.text)).toEqual(["hey in today's lesson", 'you finally think', '[Music]']);
    for (const s of segments) {
      expect(s.words?.length).toBeGreaterThan(0);
      expect(s.words!.map((w) => w.text).join(' ')).toBe(s.text);
      let last = s.start;
      for (const w of s.words!) {
        expect(w.start).toBeGreaterThanOrEqual(last);
        expect(w.end).toBeGreaterThanOrEqual(w.start);
        expect(w.end).toBeLessThanOrEqual(s.end);
        last = w.start;
      }
    }
  });

  it('a word starts at the event start plus its tOffsetMs and ends where the next starts', () => {
    expect(segments[0]!.words).toEqual([
      { start: 2.399, end: 2.6, text: 'hey' },
      { start: 2.6, end: 2.72, text: 'in' },
      { start: 2.72, end: 3.12, text: "today's" },
      // The rolling event is clipped at the next one's start, and its last word with it.
      { start: 3.12, end: 4.44, text: 'lesson' },
    ]);
    expect(segments[1]!.words!.map((w) => w.start)).toEqual([4.44, 4.759, 5.56]);
  });

  it('a track without any offset (manual captions) has no words', () => {
    const manual = parseJson3(track([{ tStartMs: 0, dDurationMs: 2000, segs: [{ utf8: 'plain line' }] }]));
    expect(manual[0]!.words).toBeUndefined();
  });

  it('is tolerant: junk segs, a seg without an offset joining the word before, offsets past the event', () => {
    const odd = parseJson3(
      track([
        {
          tStartMs: 1000,
          dDurationMs: 2000,
          segs: [null, { utf8: 'one', tOffsetMs: 'x' }, { utf8: ' two', tOffsetMs: 500 }, { utf8: 'fold' }, 7],
        },
        { tStartMs: 3000, dDurationMs: 1000, segs: [{ utf8: 'late', tOffsetMs: 99999 }] },
      ]),
    );
    expect(odd.map((s) => s.text)).toEqual(['one twofold', 'late']);
    expect(odd[0]!.words).toEqual([
      { start: 1, end: 1.5, text: 'one' },
      { start: 1.5, end: 3, text: 'twofold' },
    ]);
    // Clamped into its segment.
    expect(odd[1]!.words).toEqual([{ start: 4, end: 4, text: 'late' }]);
  });

  it('srv3 auto-captions (<s t="ms" ac="…">) give the same words as json3', () => {
    const srv3 =
      '<?xml version="1.0" encoding="utf-8" ?><timedtext format="3"><body>' +
      '<w t="0" id="1" wp="1" ws="1"/>' +
      '<p t="2399" d="6801" w="1"><s ac="0">hey</s><s t="201" ac="0"> in</s><s t="321" ac="0"> today&#39;s</s><s t="721" ac="0"> lesson</s></p>' +
      '<p t="4430" d="4770" w="1" a="1">\n</p>' +
      '<p t="4440" d="6239" w="1"><s ac="0">you</s><s t="319" ac="0"> finally</s><s t="1120" ac="0"> think</s></p>' +
      '<p t="9000" d="1500" w="1"><s ac="0">[Music]</s></p>' +
      '</body></timedtext>';
    expect(parseTimedTextXml(srv3)).toEqual(segments);
  });
});
