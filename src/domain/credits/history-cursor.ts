// The credit history's cursor: only a position in the ledger (the last row's created_at to the microsecond and its
// id), never whose ledger it is; the account always comes from the caller. Opaque to callers, not secret.
import { ServiceError } from '../errors.ts';
import type { LedgerPosition } from './credit-ledger.ts';

const POSITION_AT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

export const encodeHistoryCursor = (p: LedgerPosition): string =>
  Buffer.from(JSON.stringify([p.at, p.id]), 'utf8').toString('base64url');

const invalid = () => new ServiceError('INVALID_REQUEST', 'cursor is not a cursor this service issued');

/** A position the database can read back, or INVALID_REQUEST: a forged cursor must never reach SQL as garbage. */
export function decodeHistoryCursor(cursor: string): LedgerPosition {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  if (!Array.isArray(parsed) || parsed.length !== 2) throw invalid();
  const [at, id] = parsed as unknown[];
  if (typeof at !== 'string' || !POSITION_AT.test(at) || !Number.isSafeInteger(id) || (id as number) < 1)
    throw invalid();
  // A real calendar time (no 2026-02-30, no 25:00) that PostgreSQL will accept.
  const ms = `${at.slice(0, 23)}Z`;
  const date = new Date(ms);
  if (Number.isNaN(date.getTime()) || date.toISOString() !== ms || date.getUTCFullYear() < 1) throw invalid();
  return { at, id: id as number };
}
