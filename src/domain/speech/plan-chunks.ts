// Where to cut long audio into chunks an engine can take: at the quietest moment near each chunk's end, so no
// word is cut in half. Pure: works on the frame loudness the decoder measured.
import { FRAME_SECONDS } from './ports.ts';

export interface Chunk {
  start: number;
  end: number;
}

/**
 * Chunks of at most `maxSeconds` covering [0, seconds). Each cut is placed at the quietest 0.3 s window in the last
 * third of the allowed span (the middle of the latest such pause), so chunks stay long and cuts fall in pauses. Silent chunks are kept:
 * the engine answers nothing for them.
 */
export function planChunks(frameRms: Float32Array, seconds: number, maxSeconds: number): Chunk[] {
  if (!(seconds > 0)) return [];
  const chunks: Chunk[] = [];
  const window = Math.max(1, Math.round(0.3 / FRAME_SECONDS));
  let start = 0;
  while (seconds - start > maxSeconds) {
    const from = Math.floor((start + (maxSeconds * 2) / 3) / FRAME_SECONDS);
    const to = Math.floor((start + maxSeconds) / FRAME_SECONDS) - window;
    const energy = (f: number) => {
      let e = 0;
      for (let k = 0; k < window; k++) e += frameRms[f + k] ?? 0;
      return e;
    };
    let best = to;
    let bestEnergy = Infinity;
    for (let f = from; f <= to; f++) {
      const e = energy(f);
      if (e <= bestEnergy) {
        bestEnergy = e;
        best = f;
      }
    }
    // The quietest stretch may be longer than the window (a whole pause): cut in its middle.
    let runStart = best;
    while (runStart > from && energy(runStart - 1) <= bestEnergy) runStart--;
    const cut = round3(((runStart + best + window) / 2) * FRAME_SECONDS);
    chunks.push({ start, end: cut });
    start = cut;
  }
  chunks.push({ start, end: round3(seconds) });
  return chunks;
}

const round3 = (n: number) => Math.round(n * 1000) / 1000;
