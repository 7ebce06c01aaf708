// The XML timedtext formats, read with a few regexes (no XML parser ships in our dependencies, and these
// documents are flat: a list of timed elements with text and inline spans):
//   srv3  <timedtext format="3"><body><p t="ms" d="ms">text<s>word</s></p>
//   srv2  <timedtext><text t="ms" d="ms">text</text>
//   srv1  <transcript><text start="s" dur="s">text</text>   (the default when fmt is absent)
import type { Segment } from '../../domain/video/schemas.ts';
import { decodeEntities, normalizeCues, type RawCue } from './normalize-cues.ts';

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

export function parseTimedTextXml(body: string): Segment[] {
  if (!isTimedTextXml(body)) throw new Error('not a timedtext XML document');
  const cues: RawCue[] = [];
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
    cues.push({ start: start / scale, end: Number.isFinite(duration) ? (start + duration) / scale : undefined, text });
  }
  return normalizeCues(cues);
}

function attributes(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [, name, dq, sq] of text.matchAll(ATTRIBUTE)) if (name) out[name] = dq ?? sq ?? '';
  return out;
}
