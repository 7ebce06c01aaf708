import { describe, expect, it } from 'vitest';
import { ServiceError } from '../errors.ts';
import { FRAME_SECONDS, SAMPLE_RATE, type AudioDecoder, type SpeechEngine } from './ports.ts';
import { transcribeAudio } from './transcribe-audio.ts';

/** A decoder answering `seconds` of loud audio, remembering the bound it was asked for. */
function decoderOf(seconds: number) {
  const asked: number[] = [];
  const decoder: AudioDecoder = {
    async decode(_source, { maxSeconds }) {
      asked.push(maxSeconds);
      const decoded = Math.min(seconds, maxSeconds + 1);
      return {
        seconds: decoded,
        frameRms: new Float32Array(Math.ceil(decoded / FRAME_SECONDS)).fill(0.3),
        read: async (start, end) => Buffer.alloc(Math.round((end - start) * SAMPLE_RATE) * 2),
        dispose: async () => {},
      };
    },
  };
  return { decoder, asked };
}

function engineOf(maxChunkSeconds: number) {
  const sent: number[] = [];
  const engine: SpeechEngine = {
    name: 'test',
    model: 'test',
    maxChunkSeconds,
    languages: null,
    async transcribe(pcm) {
      const s = pcm.length / (2 * SAMPLE_RATE);
      sent.push(s);
      return { language: 'en', segments: [{ start: 0, end: s, text: 'words' }] };
    },
  };
  return { engine, sent };
}

const source = { url: 'https://example.com/a.m3u8', seconds: 0.3 };

describe('transcribeAudio: bounded by the audio decoded and the budget', () => {
  it('decodes no further than the budget covers, and refuses audio past it before sending any chunk', async () => {
    const { decoder, asked } = decoderOf(180);
    const { engine, sent } = engineOf(30);
    const budget = {
      seconds: 60,
      assertCovers: async (decoded: number) => {
        if (decoded > 60) throw new ServiceError('INSUFFICIENT_CREDITS', 'not covered');
      },
    };
    await expect(
      transcribeAudio({ decoder, engine }, source, { maxSeconds: 3600, maxBytes: 1e9, budget }),
    ).rejects.toMatchObject({ code: 'INSUFFICIENT_CREDITS' });
    expect(asked).toEqual([60]);
    expect(sent).toEqual([]);
  });

  it('asks the budget again before every chunk: spent meanwhile, the next chunk is never sent', async () => {
    const { decoder } = decoderOf(90);
    const { engine, sent } = engineOf(30);
    let checks = 0;
    const budget = {
      seconds: 120,
      assertCovers: async () => {
        if (++checks === 3) throw new ServiceError('INSUFFICIENT_CREDITS', 'spent elsewhere');
      },
    };
    await expect(
      transcribeAudio({ decoder, engine }, source, { maxSeconds: 3600, maxBytes: 1e9, budget }),
    ).rejects.toMatchObject({ code: 'INSUFFICIENT_CREDITS' });
    expect(sent).toHaveLength(2);
  });

  it('longer than maxSeconds whatever the media claimed: MEDIA_TOO_LARGE before any chunk is sent', async () => {
    const { decoder, asked } = decoderOf(180);
    const { engine, sent } = engineOf(30);
    await expect(
      transcribeAudio({ decoder, engine }, source, { maxSeconds: 100, maxBytes: 1e9 }),
    ).rejects.toMatchObject({ code: 'MEDIA_TOO_LARGE' });
    expect(asked).toEqual([100]);
    expect(sent).toEqual([]);
  });

  it('within both bounds: every chunk sent, the length is what was decoded', async () => {
    const { decoder } = decoderOf(90);
    const { engine, sent } = engineOf(30);
    const out = await transcribeAudio({ decoder, engine }, source, {
      maxSeconds: 3600,
      maxBytes: 1e9,
      budget: { seconds: 120, assertCovers: async () => {} },
    });
    expect(out.seconds).toBe(90);
    expect(sent.reduce((a, b) => a + b, 0)).toBeCloseTo(90, 3);
  });
});
