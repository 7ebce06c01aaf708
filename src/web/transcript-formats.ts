export interface Segment {
  start: number;
  end: number;
  text: string;
}

function stamp(seconds: number, sep: ',' | '.'): string {
  const ms = Math.max(0, Math.round(seconds * 1000));
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const s = Math.floor((ms % 60_000) / 1000);
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${pad(h)}:${pad(m)}:${pad(s)}${sep}${pad(ms % 1000, 3)}`;
}

/** Cue text must not contain a blank line (it would end the cue), nor "-->" in WebVTT. */
const cueText = (text: string) => text.replace(/\r/g, '').replace(/\n{2,}/g, '\n').trim();

export const toText = (segments: Segment[]) => segments.map((s) => s.text.trim()).filter(Boolean).join('\n') + '\n';

export const toSrt = (segments: Segment[]) =>
  segments.map((s, i) => `${i + 1}\n${stamp(s.start, ',')} --> ${stamp(s.end, ',')}\n${cueText(s.text)}\n`).join('\n');

export const toVtt = (segments: Segment[]) =>
  'WEBVTT\n\n' +
  segments.map((s) => `${stamp(s.start, '.')} --> ${stamp(s.end, '.')}\n${cueText(s.text).replace(/-->/g, '->')}\n`).join('\n');

/** Saves a text as a file through a temporary link (no server round-trip). */
export function download(filename: string, text: string, type: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: `${type};charset=utf-8` }));
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
