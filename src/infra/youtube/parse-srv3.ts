// The XML timedtext formats, read with a few regexes (no XML parser ships in our dependencies, and these
// documents are flat: a list of timed elements with text and inline spans):
//   srv3  <timedtext format="3"><body><p t="ms" d="ms">text<s>word</s></p>
//   srv2  <timedtext><text t="ms" d="ms">text</text>
//   srv1  <transcript><text start="s" dur="s">text</text>   (the default when fmt is absent)
import type { WordedSegment } from '../../domain/transcripts/words.ts';
import { decodeEntities, normalizeCues, type RawCue } from './normalize-cues.ts';
import { wordsOfEvent } from './word-offsets.ts';

// Linear-time patterns only: an opening tag ends at the first < or >, an attribute name starts after a non-name
// character, and an element's end is found with indexOf (a lazy [\s\S]*? with a back-reference is polynomial).
const OPEN_TAG = /<(p|text)\b([^<>]*)>/g;
const CLOSE_TAG_END = /^\s*>/;
const ATTRIBUTE = /(?<![\w:-])([\w:-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;

/** Each <p …>…</p> or <text …>…</text> (or self-closed) element: its tag, attribute text and inner text. */
function* elements(body: string): Generator<[string, string, string]> {
  const unclosed = new Set<string>();
  OPEN_TAG.lastIndex = 0;
  for (let m = OPEN_TAG.exec(body); m; m = OPEN_TAG.exec(body)) {
    const tag = m[1]!;
    const attrs = m[2]!;
    if (attrs.endsWith('/')) {
      yield [tag, attrs.slice(0, -1), ''];
      continue;
    }
    if (unclosed.has(tag)) continue;
    const innerStart = OPEN_TAG.lastIndex;
    let close = body.indexOf(`</${tag}`, innerStart);
    let end = -1;
    while (close >= 0) {
      const after = close + tag.length + 2;
      const gt = CLOSE_TAG_END.exec(body.slice(after, after + 64));
      if (gt) {
        end = after + gt[0].length;
        break;
      }
      close = body.indexOf(`</${tag}`, after);
    }
    // No end tag from here on: none later either, so no other element of this tag can close.
    if (end < 0) {
      unclosed.add(tag);
      continue;
    }
    yield [tag, attrs, body.slice(innerStart, close)];
    OPEN_TAG.lastIndex = end;
  }
}

export function isTimedTextXml(body: string): boolean {
  return /^\s*(?:<\?xml[^>]*>\s*)?<(timedtext|transcript)\b/.test(body);
}

export function parseTimedTextXml(body: string): WordedSegment[] {
  if (!isTimedTextXml(body)) throw new Error('not a timedtext XML document');
  const cues: RawCue[] = [];
  // Word timing is a property of the track (an srv3 span with an offset anywhere).
  const timed = /<s\b[^<>]*[^\w:<>-]t\s*=/.test(body);
  for (const [tag, attrText, inner] of elements(body)) {
    const attrs = attributes(attrText);
    // srv1 <text start dur> is in seconds; srv2 <text t d> and srv3 <p t d> in milliseconds.
    const inSeconds = tag === 'text' && attrs.start !== undefined;
    const start = Number(inSeconds ? attrs.start : attrs.t);
    const duration = Number(inSeconds ? attrs.dur : attrs.d);
    const scale = inSeconds ? 1 : 1000;
    if (!Number.isFinite(start)) continue;
    // Strip the XML's own elements (<s>, <br/>), then undo XML escaping; what remains can still hold HTML-ish
    // markup YouTube escaped once more (srv1 "&lt;i>"), which cleanCueText strips and decodes.
    const text = decodeEntities(inner.replace(/<br\s*\/?>/gi, '\n').replace(/<\/?s\b[^<>]*>/g, ''));
    const end = Number.isFinite(duration) ? (start + duration) / scale : undefined;
    // srv3 auto-captions time their words as json3 does: <s t="offset ms" ac="…">word</s> (word-offsets.ts).
    const words = !inSeconds && timed ? { words: wordsOfEvent(start, spansOf(inner), end) } : {};
    cues.push({ start: start / scale, end, text, ...words });
  }
  return normalizeCues(cues);
}

// A span's text ends at the next tag: linear, and <s> holds no markup of its own.
const SPAN = /<s\b([^<>]*)>([^<]*)<\/s\s*>/g;
// No lookbehind: recheck proves patterns without one exactly (its fuzzer, used otherwise, is not deterministic).
const OFFSET = /(?:^|[^\w:-])t\s*=\s*["'](\d{1,9})["']/;

/** The <s> spans of a <p>, as pieces with their offsets. */
function spansOf(inner: string) {
  return [...inner.matchAll(SPAN)].map((m) => {
    const t = OFFSET.exec(m[1] ?? '');
    return { text: decodeEntities(m[2] ?? ''), offsetMs: t ? Number(t[1]) : undefined };
  });
}

function attributes(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [, name, dq, sq] of text.matchAll(ATTRIBUTE)) if (name) out[name] = dq ?? sq ?? '';
  return out;
}
