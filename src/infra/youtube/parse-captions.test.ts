// Caption parsers on our own hand-written fixtures (test/fixtures/youtube-own) and small inline cases.
import { describe, expect, it } from 'vitest';
import { parseCaptionBody } from './download-captions.ts';
import { cleanCueText, decodeEntities, normalizeCues } from './normalize-cues.ts';
import { parseJson3 } from './parse-json3.ts';
import { parseTimedTextXml } from './parse-srv3.ts';
import { parseVtt } from './parse-vtt.ts';
import { readOwn } from '../../../test/support/fixture-files.ts';

describe('decodeEntities and cleanCueText', () => {
  it('decodes named and numeric entities', () => {
    expect(decodeEntities('&amp; &lt; &gt; &quot; &#39; &apos; &#x263A; &#8203;x &bogus;')).toBe(
      "& < > \" ' ' ☺ \u200bx &bogus;",
    );
  });

  it('strips markup, zero-width spaces and joins lines', () => {
    expect(
      cleanCueText('<b>bold</b> <font color="#fff">and</font>\n<c.colorE5E5E5>more</c><00:00:01.500><c> words</c>'),
    ).toBe('bold and more words');
    expect(cleanCueText('\u200b  spaced \t out\u200b  ')).toBe('spaced out');
    expect(cleanCueText('a < b and c > d')).toBe('a < b and c > d');
  });

  it('collapses a line drawn twice (styled shadow copies)', () => {
    expect(cleanCueText('Haooo!\u200b\n\u200b\u200bHaooo!')).toBe('Haooo!');
    expect(cleanCueText('one\ntwo\none')).toBe('one two one');
  });
});

describe('normalizeCues', () => {
  it('sorts by start (stable), drops empty cues and clips overlaps', () => {
    const out = normalizeCues([
      { start: 2, end: 5, text: 'b' },
      { start: 1, end: 3, text: 'a' },
      { start: 2.5, end: 2.6, text: '   ' },
      { start: 4, end: 6, text: 'c' },
    ]);
    expect(out).toEqual([
      { start: 1, end: 2, text: 'a' },
      { start: 2, end: 4, text: 'b' },
      { start: 4, end: 6, text: 'c' },
    ]);
  });

  it('keeps end > start for cues starting together or missing an end', () => {
    const out = normalizeCues([
      { start: 1, end: 3, text: 'top' },
      { start: 1, end: 2, text: 'bottom' },
      { start: 7, text: 'tail' },
    ]);
    expect(out[0]).toEqual({ start: 1, end: 3, text: 'top' });
    expect(out[1]).toEqual({ start: 1, end: 2, text: 'bottom' });
    expect(out[2]!.end).toBeGreaterThan(out[2]!.start);
  });
});

describe('parseJson3 (own ASR fixture)', () => {
  const segments = parseJson3(readOwn('timedtext.own.asr.json3.json'));
  it('joins word segments, drops window and append events, clips rolling overlaps', () => {
    expect(segments.map(({ start, end, text }) => ({ start, end, text }))).toEqual([
      { start: 0.08, end: 2.02, text: 'hello and welcome' },
      { start: 2.02, end: 5.5, text: "Tom & Jerry it's" },
      { start: 5.5, end: 5.51, text: 'last line' },
    ]);
  });
  it('times each word from its tOffsetMs; a seg of several words spreads them over its span', () => {
    expect(segments.map((s) => s.words)).toEqual([
      [
        { start: 0.08, end: 0.48, text: 'hello' },
        { start: 0.48, end: 0.98, text: 'and' },
        { start: 0.98, end: 2.02, text: 'welcome' },
      ],
      [
        { start: 2.02, end: 2.12, text: 'Tom' },
        { start: 2.12, end: 2.22, text: '&' },
        { start: 2.22, end: 2.32, text: 'Jerry' },
        { start: 2.32, end: 5.5, text: "it's" },
      ],
      [
        { start: 5.5, end: 5.5, text: 'last' },
        { start: 5.5, end: 5.51, text: 'line' },
      ],
    ]);
  });
});

describe('parseTimedTextXml', () => {
  it('reads srv1 (seconds) with double-escaped entities and escaped markup', () => {
    expect(parseTimedTextXml(readOwn('timedtext.own.srv1.xml'))).toEqual([
      { start: 1.5, end: 3, text: 'It\'s "quoted" & fine' },
      { start: 3, end: 5.5, text: 'an italic word' },
      { start: 6.25, end: 8, text: 'line one line two' },
    ]);
  });

  it('reads srv3 (milliseconds) with <s> spans, <br/>, and a cue out of order', () => {
    const segments = parseTimedTextXml(readOwn('timedtext.own.srv3.xml'));
    expect(segments.map(({ start, end, text }) => ({ start, end, text }))).toEqual([
      { start: 0.5, end: 0.9, text: 'early' },
      { start: 1, end: 2.5, text: 'first words' },
      { start: 3, end: 4, text: 'second line ☺' },
    ]);
    // Spans with an offset (<s t="ms">, as srv3 auto-captions time their words) are read as word timings.
    expect(segments.map((s) => s.words)).toEqual([
      null,
      [
        { start: 1, end: 1.5, text: 'first' },
        { start: 1.5, end: 2.5, text: 'words' },
      ],
      null,
    ]);
  });

  it('rejects what is not timedtext', () => {
    expect(() => parseTimedTextXml('<html></html>')).toThrow(/not a timedtext/);
  });
});

describe('parseVtt', () => {
  it('skips header, NOTE and cue ids; strips classes and inline timestamps', () => {
    expect(parseVtt(readOwn('timedtext.own.vtt'))).toEqual([
      { start: 1, end: 2.5, text: 'hello there' },
      { start: 2.5, end: 4, text: 'bold & italic second line' },
    ]);
  });
});

describe('parseCaptionBody picks the format from the body', () => {
  it.each([
    ['timedtext.own.asr.json3.json', 3],
    ['timedtext.own.srv1.xml', 3],
    ['timedtext.own.srv3.xml', 3],
    ['timedtext.own.vtt', 2],
  ])('%s', (name, count) => {
    expect(parseCaptionBody(readOwn(name))).toHaveLength(count);
  });

  it('calls an HTML page what it is', () => {
    expect(() => parseCaptionBody('<!DOCTYPE html><html><form action="/das_captcha"></form></html>')).toThrow(
      /rate-limiting/,
    );
  });

  it('fails clearly on garbage', () => {
    expect(() => parseCaptionBody('{"no":"events"}')).toThrow(expect.objectContaining({ code: 'EXTRACTION_FAILED' }));
    expect(() => parseCaptionBody('plain text')).toThrow(/unknown format/);
  });
});
