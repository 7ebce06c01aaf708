import type { CommandInfo as Command } from './command-list.ts';

const PROGRAM = 'npm run cli --';

/** The overview: every command, the shared options, examples and where the data lives. */
export function overview(commands: Command[]): string {
  const width = Math.max(...commands.map((c) => c.name.length));
  return [
    "Subtext's operator CLI: accounts, API keys and credits, in the same database as npm start.",
    '',
    `Usage: ${PROGRAM} <command> [options]`,
    '',
    'Commands:',
    ...commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    'Options:',
    "  -h, --help  this help; after a command, that command's (keys create --help)",
    '  --json      lists and results as JSON, for scripts',
    '',
    'Examples:',
    '  KEY=$(npm run -s cli -- keys create --email you@example.com --name laptop | tail -1)',
    '  npm run cli -- credits grant --email you@example.com --amount 100',
    '  npm run cli -- keys list --email you@example.com',
    '',
    'The database is DATABASE_URL, or else the embedded PostgreSQL under DATA_DIR (default ./.data), which a',
    "running npm start shares. `npm run -s` keeps npm's own lines out of the output.",
  ].join('\n');
}

/** One command's help: what it does, its usage line, options and examples. */
export function commandHelp(c: Command): string {
  return [
    `${c.summary}.`,
    '',
    `Usage: ${PROGRAM} ${c.name} ${c.usage}`.trimEnd(),
    '',
    'Options:',
    ...aligned([...c.options, ['-h, --help', 'this help']]),
    '',
    'Examples:',
    ...c.examples.map((e) => `  ${e}`),
  ].join('\n');
}

/** The commands under a group word (`keys`), for `keys --help` or a bare `keys`. */
export function groupHelp(group: string, commands: Command[]): string {
  const width = Math.max(...commands.map((c) => c.name.length));
  return [
    `Usage: ${PROGRAM} ${group} <command> [options]`,
    '',
    'Commands:',
    ...commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    `Run "${PROGRAM} ${commands[0]!.name} --help" for a command's options.`,
  ].join('\n');
}

function aligned(rows: [string, string][]): string[] {
  const width = Math.max(...rows.map(([flag]) => flag.length));
  return rows.map(([flag, meaning]) => `  ${flag.padEnd(width)}  ${meaning}`);
}
