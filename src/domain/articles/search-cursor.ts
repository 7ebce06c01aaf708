// The cursor of article search: where the last page ended, in the backend's terms, wrapped with what it continues
// (a digest of the query and filters) and the count of the first page, so deeper pages neither skip by offset nor
// count again. Opaque, not secret: a forged one can only point elsewhere in the same public index.
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { ServiceError } from '../errors.ts';
import type { SearchPosition } from './ports.ts';

export interface SearchCursor {
  /** The backend's position after the last article shown. */
  position: SearchPosition;
  /** Articles shown before the next page (its first is number shown + 1). */
  shown: number;
  total: number;
  exact: boolean;
}

const Envelope = z.object({
  v: z.literal(1),
  s: z.string(),
  p: z.record(z.string(), z.unknown()),
  o: z.number().int().min(0),
  n: z.number().int().min(0),
  x: z.boolean(),
});

const NOT_OURS = 'cursor is not a cursor this service issued';

/** What a cursor continues: the same query text and filters give the same scope. */
export function searchScope(query: string | undefined, category: string | undefined, lang: string | undefined) {
  return createHash('sha256')
    .update(JSON.stringify([query ?? '', category ?? '', lang?.toLowerCase() ?? '']))
    .digest('base64url')
    .slice(0, 16);
}

export function encodeSearchCursor(scope: string, c: SearchCursor): string {
  const e: z.infer<typeof Envelope> = { v: 1, s: scope, p: c.position, o: c.shown, n: c.total, x: c.exact };
  return Buffer.from(JSON.stringify(e), 'utf8').toString('base64url');
}

export function decodeSearchCursor(cursor: string, scope: string): SearchCursor {
  let raw: unknown;
  try {
    raw = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw new ServiceError('INVALID_REQUEST', NOT_OURS);
  }
  const e = Envelope.safeParse(raw);
  if (!e.success) throw new ServiceError('INVALID_REQUEST', NOT_OURS);
  if (e.data.s !== scope)
    throw new ServiceError(
      'INVALID_REQUEST',
      'cursor belongs to another search; pass the same query, category and lang it came from',
    );
  return { position: e.data.p, shown: e.data.o, total: e.data.n, exact: e.data.x };
}
