// Fails when the drizzle schema and the last migration snapshot disagree: `npm run db:generate` on a clean tree must
// write nothing, or the next person to add a column ships a migration that recreates existing tables.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const scratch = mkdtempSync(join(tmpdir(), 'subtext-migrations-'));
try {
  for (const f of ['db', 'drizzle.config.ts', 'package.json', 'tsconfig.json'])
    cpSync(join(root, f), join(scratch, f), { recursive: true });
  symlinkSync(join(root, 'node_modules'), join(scratch, 'node_modules'));
  const before = readdirSync(join(scratch, 'db/migrations')).length;
  const out = execFileSync(join(root, 'node_modules/.bin/drizzle-kit'), ['generate'], {
    cwd: scratch,
    encoding: 'utf8',
  });
  const after = readdirSync(join(scratch, 'db/migrations')).length;
  if (after !== before) {
    console.error(
      'db/schema differs from the last migration snapshot: run `npm run db:generate` and commit the result.',
    );
    console.error(out);
    process.exit(1);
  }
  console.log('migrations: schema matches the last snapshot');
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
