import { rmSync } from 'node:fs';
import { preparePostgres } from '../support/global-setup.ts';
import { NOTES_DIR, writeReport } from './support.ts';

/**
 * Once per reliability run: the same PostgreSQL and migrated template as the main suite (named after the
 * migrations, so a concurrent `npm test` is never disturbed); RELIABILITY.md is written from the notes the
 * tests leave, at the end.
 */
export default async function setup() {
  rmSync(NOTES_DIR, { recursive: true, force: true });
  const stop = await preparePostgres();
  return async () => {
    writeReport();
    await stop();
  };
}
