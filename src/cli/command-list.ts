// What each CLI command is called and how it is used: read by --help without loading the database code.

export interface CommandInfo {
  name: string;
  summary: string;
  /** The options after the command name, as shown in its usage line. */
  usage: string;
  /** Each option and what it does. */
  options: [flag: string, meaning: string][];
  examples: string[];
  /** Words after the command name are its arguments (passed as `videos`, comma-joined). */
  takesArguments?: boolean;
}

const EMAIL: [string, string] = ['--email <email>', 'the account (any case)'];

export const COMMANDS: CommandInfo[] = [
  {
    name: 'keys create',
    summary: 'Create an API key (and the account, if new); the key is printed once, alone on the last line',
    usage: '--email <email> [--name <name>] [--expires <ISO date | <n>d>] [--rate-limit <n>]',
    options: [
      EMAIL,
      ['--name <name>', 'a label for the key (default "cli")'],
      ['--expires <date | <n>d>', 'refuse the key after this date, or after n days'],
      ['--rate-limit <n>', 'requests per minute for this key (default RATE_LIMIT_PER_MINUTE)'],
    ],
    examples: [
      'KEY=$(npm run -s cli -- keys create --email you@example.com --name laptop | tail -1)',
      'npm run cli -- keys create --email ci@example.com --name ci --expires 30d --rate-limit 120',
    ],
  },
  {
    name: 'keys list',
    summary: "List an account's keys (display prefix, status, dates; never the key)",
    usage: '--email <email> [--json]',
    options: [EMAIL, ['--json', 'a JSON array, for scripts']],
    examples: [
      'npm run cli -- keys list --email you@example.com',
      'npm run -s cli -- keys list --email you@example.com --json',
    ],
  },
  {
    name: 'keys revoke',
    summary: 'Revoke a key; it is refused (401) from the next request on',
    usage: '--email <email> --id <key id>',
    options: [EMAIL, ['--id <key id>', 'the key to revoke (key_..., from keys list)']],
    examples: ['npm run cli -- keys revoke --email you@example.com --id key_01m8...'],
  },
  {
    name: 'credits grant',
    summary: 'Add purchased credits to an account (spent after the daily free allowance)',
    usage: '--email <email> --amount <n>',
    options: [EMAIL, ['--amount <n>', 'a positive number of credits']],
    examples: ['npm run cli -- credits grant --email you@example.com --amount 100'],
  },
  {
    name: 'accounts list',
    summary: 'List accounts with their purchased balance',
    usage: '[--json]',
    options: [['--json', 'a JSON array, for scripts']],
    examples: ['npm run cli -- accounts list', 'npm run -s cli -- accounts list --json'],
  },
  {
    name: 'invites create',
    summary:
      'Make a single-use sign-up invite code (SIGN_UP=invite); printed once on the last stdout line, stored hashed',
    usage: '',
    options: [],
    examples: ['npm run -s cli -- invites create | tail -1'],
  },
  {
    name: 'accounts set-password',
    summary: "Set an account's website password, read from stdin (never argv); signs its sessions out",
    usage: '--email <email>',
    options: [EMAIL],
    examples: ["printf '%s' 'the new password' | npm run cli -- accounts set-password --email you@example.com"],
  },
  {
    name: 'search reindex',
    summary: 'Upsert every stored article into Typesense (SEARCH_BACKEND=typesense); exit 1 if any failed',
    usage: '[--batch-size <n>]',
    options: [['--batch-size <n>', 'articles per request, 1-10000 (default 100)']],
    examples: [
      'SEARCH_BACKEND=typesense TYPESENSE_URL=http://localhost:8108 TYPESENSE_API_KEY=... npm run cli -- search reindex',
    ],
  },
  {
    name: 'youtube status',
    summary:
      'Which YouTube clients and egress identities work: chains, PO token provider, budgets, cool-downs, outcomes (all instances)',
    usage: '[--hours <n>] [--json]',
    options: [
      ['--hours <n>', 'count attempts over the last n hours, 1-336 (default 24)'],
      ['--json', 'a JSON object, for scripts'],
    ],
    examples: ['npm run cli -- youtube status', 'npm run -s cli -- youtube status --hours 1 --json'],
  },
  {
    name: 'youtube check',
    summary:
      'The canary, now: info, tracks and a caption file (or a stream URL) through every client of every chain, one row each',
    usage: '[videoId...] [--json]',
    options: [
      [
        'videoId...',
        'videos with captions to check (default YOUTUBE_CANARY_VIDEOS; an id starting with - goes after --); exit 1 when a check fails',
      ],
      ['--json', 'a JSON object, for scripts'],
    ],
    examples: ['npm run cli -- youtube check F1xioXWb8CY', 'npm run -s cli -- youtube check --json'],
    takesArguments: true,
  },
];
