import { describe, expect, it } from 'vitest';
import { isDatabaseDown } from '../../db/database-errors.ts';

describe('isDatabaseDown', () => {
  it('counts a full server (53300 too_many_connections) as busy, like a restart', () => {
    expect(isDatabaseDown({ code: '53300' })).toBe(true);
    expect(isDatabaseDown({ code: '57P01' })).toBe(true);
    expect(isDatabaseDown({ code: 'CONNECTION_CLOSED' })).toBe(true);
  });

  it('counts a write to a socket the server just closed (EPIPE) as the database away, not a 500', () => {
    // Found by the long invariant run: a request whose query was written as a blip cut its connection.
    expect(isDatabaseDown({ code: 'EPIPE' })).toBe(true);
  });

  it('leaves errors of the query itself alone', () => {
    expect(isDatabaseDown({ code: '23505' })).toBe(false);
    expect(isDatabaseDown(new Error('boom'))).toBe(false);
    expect(isDatabaseDown(undefined)).toBe(false);
  });
});
