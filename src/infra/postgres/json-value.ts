import type { JSONValue } from 'postgres';

/**
 * postgres.js types `sql.json()`'s argument as its JSONValue, which admits no `unknown` member (a job's input, a
 * client's metadata, a batch's operation are zod-checked objects typed loosely): the one cast, made here.
 */
export const jsonValue = (v: unknown) => v as JSONValue;
