import { describe, expect, it } from 'vitest';
import { waitText } from './wait-text.ts';

describe('waitText', () => {
  it('is grammatical in every unit', () => {
    expect([1, 45, 60, 61, 120, 3599, 3600, 7200].map(waitText)).toEqual([
      '1 second',
      '45 seconds',
      '1 minute',
      '2 minutes',
      '2 minutes',
      '60 minutes',
      '1 hour',
      '2 hours',
    ]);
  });
});
