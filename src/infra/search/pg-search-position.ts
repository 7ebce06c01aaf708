// Where a search's walk through its order stands, and how that travels in a cursor.
import { z } from 'zod';
import type { SearchPosition } from '../../domain/articles/ports.ts';
import { ServiceError } from '../../domain/errors.ts';

/** Matches are counted up to this many (page * limit never reaches further); past it the total is a lower bound. */
export const COUNT_CAP = 10_000;

/** An article's place in date order: its creation time (UTC, to the microsecond) and id. */
export type Key = [at: string, id: string];

/**
 * Where a walk through the order stands: a tier, the last article passed in it (`after`, for the tiers in date order)
 * and how many more to skip. A page asked for by number starts with an offset; a cursor starts right after its key.
 */
export interface Position {
  tier: 'newest' | 'head' | 'older' | 'rest' | 'ranked' | 'dated';
  after?: Key;
  skip: number;
}

const Key = z.tuple([
  z
    .string()
    // Year 1 on: PostgreSQL has no year 0 (the query would fail on it).
    .regex(/^(?!0000)\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/)
    .refine((t) => {
      const d = new Date(`${t.slice(0, 23)}Z`);
      return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 19) === t.slice(0, 19);
    }),
  z.string().min(1).max(64),
]);
/** A position as it travels in a cursor; anything else is a cursor this backend never wrote. */
const Stored = z.discriminatedUnion('t', [
  z.object({ t: z.enum(['newest', 'older', 'dated']), k: Key }),
  z.object({ t: z.enum(['head', 'rest', 'ranked']), o: z.number().int().min(0).max(COUNT_CAP) }),
]);

export function writePosition(p: Position): SearchPosition {
  return p.after ? { t: p.tier, k: p.after } : { t: p.tier, o: p.skip };
}

export function readPosition(raw: SearchPosition): Position {
  const p = Stored.safeParse(raw);
  if (!p.success) throw new ServiceError('INVALID_REQUEST', 'cursor is not a cursor this service issued');
  return 'k' in p.data ? { tier: p.data.t, after: p.data.k, skip: 0 } : { tier: p.data.t, skip: p.data.o };
}
