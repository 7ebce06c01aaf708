// The cursor a caller passes back for the next page: YouTube's continuation token wrapped with what it continues,
// so a cursor from one listing cannot be replayed against another. It is opaque, not secret: the token is YouTube's.
import { ServiceError } from '../errors.ts';

export interface CursorState {
  /** What is being listed, e.g. "playlist:PL..." or "channel:UC...:videos". */
  scope: string;
  continuation: string;
}

export function encodeCursor(state: CursorState): string {
  return Buffer.from(JSON.stringify({ v: 1, s: state.scope, c: state.continuation }), 'utf8').toString('base64url');
}

export function decodeCursor(cursor: string, scope: string): string {
  let parsed: { v?: unknown; s?: unknown; c?: unknown };
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw new ServiceError('INVALID_REQUEST', 'cursor is not a cursor this service issued');
  }
  if (parsed?.v !== 1 || typeof parsed.c !== 'string' || !parsed.c)
    throw new ServiceError('INVALID_REQUEST', 'cursor is not a cursor this service issued');
  if (parsed.s !== scope)
    throw new ServiceError(
      'INVALID_REQUEST',
      'cursor belongs to another listing; pass the same playlist, channel, tab or query it came from',
    );
  return parsed.c;
}
