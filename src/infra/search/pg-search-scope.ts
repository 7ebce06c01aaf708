// What every tier of one search shares (its scope), and the date order the tiers walk (newest first, then by id).
import type { PendingQuery, Row as PgRow, TransactionSql } from 'postgres';
import type { Sql } from '../../../db/client.ts';
import type { Key, Position } from './pg-search-position.ts';

/** A piece of SQL built with `sql` and spliced into another query. */
export type Fragment = PendingQuery<PgRow[]>;

/** What every tier of one search reads: the snapshot, the query's fragments and the page asked for. */
export interface Scope {
  sql: Sql;
  tx: TransactionSql;
  /** The query text (absent: the newest articles). */
  q: string | null;
  /** The query parsed in the chosen configuration and unstemmed. */
  tq: Fragment;
  /** The category and language filters, each an `and ...` clause. */
  filters: Fragment;
  /** What an article must hold to match (the vector, or the phrase pairs when they are the phrase match). */
  matches: Fragment;
  /** A title match (with the whole match checked when the query excludes a word, which may lie outside the title). */
  inTitle: Fragment;
  /** A match whose title does not match. */
  inRest: Fragment;
  narrowedByPhrase: boolean;
  /** A category or language filter is given. */
  filtered: boolean;
  /** See PgSearchTuning. */
  rangeShare: number;
  /** Matches counted, up to COUNT_CAP + 1. */
  n: number;
}

/** One tier's share of a page: its ids and where the walk goes on (null: the order ends here). */
export interface Step {
  ids: string[];
  next: Position | null;
}

/** After `key` in date order (newest first, then by id), as the date indexes run. */
export function afterKey(sql: Sql, key: Key | undefined) {
  if (!key) return sql``;
  const [at, id] = key;
  // As text: postgres.js sends a timestamptz parameter through Date, which drops the microseconds.
  return sql`and s.created_at <= ${at}::text::timestamptz and (s.created_at < ${at}::text::timestamptz or s.id > ${id})`;
}

/**
 * afterKey as a row comparison, which no index takes: in the match index, the date bound `<=` the key reads the date
 * entry of every older article (most of the table on a deep page) where `>=` an edge reads only the newer ones.
 */
export function afterKeyUnindexed(sql: Sql, key: Key | undefined) {
  if (!key) return sql``;
  const [at, id] = key;
  return sql`and (${at}::text::timestamptz, s.id) > (s.created_at, ${id})`;
}

/** The key's date as text: UTC to the microsecond, as the cursor carries it. */
export const keyText = (sql: Sql) => sql`to_char(s.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
export type Dated = { id: string; at: string };
export const lastKey = (rows: Dated[]): Key => [rows.at(-1)!.at, rows.at(-1)!.id];
