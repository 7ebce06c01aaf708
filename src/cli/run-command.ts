// The database side of a CLI command, loaded only when one runs (--help does not pay for it).
import { connect, migrateDatabase, type Sql } from '../../db/client.ts';
import { parseConfig } from '../config.ts';
import { isServiceError } from '../domain/errors.ts';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../infra/database/embedded-postgres.ts';
import { createStores } from '../infra/postgres/stores.ts';
import { explainStartFailure } from '../infra/start-failure.ts';
import { PREPARE, type Values } from './commands.ts';
import type { Io } from './io.ts';
import { UsageError } from './usage-error.ts';

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** Checks the arguments, opens the database (DATABASE_URL, or the embedded one under DATA_DIR) and runs the command. */
export async function runCommand(name: string, values: Values): Promise<void> {
  const config = parseConfig(process.env);
  const work = PREPARE[name]!(values, config);

  let embedded: EmbeddedDatabase | null = null;
  let sql: Sql;
  try {
    embedded = config.DATABASE_URL ? null : await startEmbeddedPostgres(config.DATA_DIR);
    const url = config.DATABASE_URL ?? embedded!.url;
    await migrateDatabase(url);
    sql = connect(url, { max: 2 }).sql;
  } catch (err) {
    await embedded?.stop().catch(() => {});
    console.error(explainStartFailure(err, { databaseUrl: config.DATABASE_URL }).message);
    process.exit(1);
  }
  const io: Io = { out: (t) => console.log(t), note: (t) => console.error(t), json: values.json === true, readStdin };
  try {
    await work({ stores: createStores(sql), sql }, io);
  } catch (err) {
    if (isServiceError(err)) throw new UsageError(err.message);
    throw err;
  } finally {
    await sql.end({ timeout: 5 });
    await embedded?.stop();
  }
}
