import { describe, expect, it } from 'vitest';
import { formatTable } from './format-table.ts';

describe('formatTable', () => {
  it('aligns columns, shortens timestamps to the minute and shows missing values as -', () => {
    const rows = [
      { id: 'key_1', name: 'laptop', at: '2026-11-23T10:49:46.123Z', used: null },
      { id: 'key_22', name: 'a much longer name', at: new Date('2026-01-02T03:04:05Z'), used: 'x' },
    ];
    const text = formatTable(
      rows,
      [
        ['ID', (r) => r.id],
        ['NAME', (r) => r.name],
        ['CREATED', (r) => r.at],
        ['USED', (r) => r.used],
      ],
      'none',
    );
    expect(text.split('\n')).toEqual([
      'ID      NAME                CREATED           USED',
      'key_1   laptop              2026-11-23 10:49  -',
      'key_22  a much longer name  2026-01-02 03:04  x',
    ]);
  });

  it('says so when there are no rows', () => {
    expect(formatTable([], [['ID', () => 1]], 'No keys.')).toBe('No keys.');
  });
});
