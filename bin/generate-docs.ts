// Writes the generated tables of the docs (src/bridges/reference-tables.ts) between their markers, in place.
import { readFileSync, writeFileSync } from 'node:fs';
import { GENERATED_DOCS, withGeneratedTables } from '../src/bridges/reference-tables.ts';

for (const file of Object.keys(GENERATED_DOCS)) {
  const url = new URL(`../${file}`, import.meta.url);
  const text = readFileSync(url, 'utf8');
  const fresh = withGeneratedTables(file, text);
  if (fresh !== text) writeFileSync(url, fresh);
  console.log(fresh === text ? `${file}: up to date` : `wrote ${file}`);
}
