// Reads the numbered cues out of a translation prompt (see buildChunkPrompt), as a fake model would.
export function promptCues(prompt: string): Array<{ i: number; text: string }> {
  return [...prompt.matchAll(/^\[(\d+)\] (.*)$/gm)].map((m) => ({ i: Number(m[1]), text: m[2] ?? '' }));
}

export function makeSegments(n: number, words = 8): Array<{ start: number; end: number; text: string }> {
  return Array.from({ length: n }, (_, k) => ({
    start: k * 2.5,
    end: k * 2.5 + 2.4,
    text: `cue ${k} ${Array.from({ length: words }, (_, w) => `word${(k * 7 + w) % 50}`).join(' ')}`,
  }));
}
