import { describe, expect, it } from 'vitest';
import { parsePocketsphinx } from './parse-pocketsphinx.ts';

// pocketsphinx_continuous -time yes on two utterances (the first line of each is its hypothesis).
const OUTPUT = `he was not an illness closed young man
<s> 0.140 0.220 0.999800
he 0.230 0.330 0.993222
was(2) 0.340 0.560 0.992924
not 0.570 0.980 0.998401
[SPEECH] 0.990 1.120 0.527359
an(2) 1.130 1.300 0.547020
illness 1.310 1.670 0.897706
<sil> 1.680 2.500 0.9
closed 2.510 2.820 0.020874
young 2.830 3.040 0.160155
man 3.050 3.500 0.753797
</s> 3.510 3.800 1.000000
she had a year
<s> 5.100 5.120 0.999100
she 5.130 5.230 0.117144
had 5.240 5.460 0.829924
++NOISE++ 5.470 5.600 0.5
a 5.610 5.700 0.038328
year 5.710 6.000 0.924031
</s> 6.010 6.200 1.000000
`;

describe('parsePocketsphinx', () => {
  it('one segment per utterance, split at long pauses, fillers and pronunciation marks dropped', () => {
    const out = parsePocketsphinx(OUTPUT);
    expect(out.map(({ start, end, text }) => ({ start, end, text }))).toEqual([
      { start: 0.23, end: 1.67, text: 'he was not an illness' },
      { start: 2.51, end: 3.5, text: 'closed young man' },
      { start: 5.13, end: 6, text: 'she had a year' },
    ]);
  });

  it('keeps each word’s own times and its posterior as the confidence', () => {
    expect(parsePocketsphinx(OUTPUT)[1]!.words).toEqual([
      { start: 2.51, end: 2.82, text: 'closed', confidence: 0.020874 },
      { start: 2.83, end: 3.04, text: 'young', confidence: 0.160155 },
      { start: 3.05, end: 3.5, text: 'man', confidence: 0.753797 },
    ]);
  });

  it('nothing recognised: no segments', () => {
    expect(parsePocketsphinx('')).toEqual([]);
    expect(parsePocketsphinx('\n<s> 0.000 0.500 1.0\n</s> 0.510 0.900 1.0\n')).toEqual([]);
  });
});
