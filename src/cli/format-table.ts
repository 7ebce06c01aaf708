export type Column<T> = [header: string, value: (row: T) => unknown];

/** A date as `2026-11-23 10:49` (UTC), what an operator scans for; null as `-`. */
function cell(v: unknown): string {
  if (v === null || v === undefined || v === '') return '-';
  if (v instanceof Date) return v.toISOString().slice(0, 16).replace('T', ' ');
  if (typeof v === 'string' && /^\d{4}-\d\d-\d\dT\d\d:\d\d/.test(v)) return v.slice(0, 16).replace('T', ' ');
  return String(v).replace(/\s+/g, ' ');
}

/** Rows as aligned plain-text columns (two spaces apart), headers first; a note when there are none. */
export function formatTable<T>(rows: T[], columns: Column<T>[], empty: string): string {
  if (rows.length === 0) return empty;
  const table = [columns.map(([h]) => h), ...rows.map((r) => columns.map(([, get]) => cell(get(r))))];
  const widths = columns.map((_, i) => Math.max(...table.map((line) => line[i]!.length)));
  return table
    .map((line) => line.map((c, i) => (i === line.length - 1 ? c : c.padEnd(widths[i]!))).join('  '))
    .join('\n');
}
