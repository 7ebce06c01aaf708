// The XML timedtext formats, read with a few regexes (no XML parser ships in our dependencies, and these
// documents are flat: a list of timed elements with text and inline spans):
//   srv3  <timedtext format="3"><body><p t="ms" d="ms">text<s>word</s></p>
//   srv2  <timedtext><text t="ms" d="ms">text</text>
//   srv1  <transcript><text start="s" dur="s">text</text>   (the default when fmt is absent)
import type { Segment } from '../../domain/video/schemas.ts';
import { decodeEntities, normalizeCues, type RawCue } from './normalize-cues.ts';

const ELEMENT = /<(p|text)\b([^>]*?)(?:\/>|>([\s\S]*?)<\/\1\s*>)/g;
const ATTRIBUTE = /([\w:-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;

export function isTimedTextXml(body: string): boolean {
  return /^\s*(?:<\?xml[^>]*>\s*)?<(timedtext|transcript)\b/.test(body);
}

export function parseTimedTextXml(body: string): Segment[] {
  if (!isTimedTextXml(body)) throw new Error('not a timedtext XML document');
  const cues: RawCue[] = [];
  for (const match of body.matchAll(ELEMENT)) {
    const [, tag, attrText = '', inner = ''] = match;
    const attrs = attributes(attrText);
    // srv1 <text start dur> is in seconds; srv2 <text t d> and srv3 <p t d> in milliseconds.
    const inSeconds = tag === 'text' && attrs.start !== undefined;
    const start = Number(inSeconds ? attrs.start : attrs.t);
    const duration = Number(inSeconds ? attrs.dur : attrs.d);
    const scale = inSeconds ? 1 : 1000;
    if (!Number.isFinite(start)) continue;
    // Strip the XML's own elements (<s>, <br/>), then undo XML escaping; what remains can still hold HTML-ish
    // markup YouTube escaped once more (srv1 "&lt;i>"), which cleanCueText strips and decodes.
    const text = decodeEntities(inner.replace(/<br\s*\/?>/gi, '\n').replace(/<\/?s\b[^>]*>/g, ''));
    cues.push({ start: start / scale, end: Number.isFinite(duration) ? (start + duration) / scale : undefined, text });
  }
  return normalizeCues(cues);
}

function attributes(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [, name, dq, sq] of text.matchAll(ATTRIBUTE)) if (name) out[name] = dq ?? sq ?? '';
  return out;
}
