import { parseArgs } from 'node:util';
import { COMMANDS, type CommandInfo } from './cli/command-list.ts';
import { commandHelp, groupHelp, overview } from './cli/help.ts';
import { UsageError } from './cli/usage-error.ts';

/** A refused command: the reason, then the help that shows the right form; exit 2. */
class Refused extends Error {
  readonly help: string;
  constructor(message: string, help: string) {
    super(message);
    this.help = help;
  }
}

function findCommand(positionals: string[]): CommandInfo | undefined {
  return (
    COMMANDS.find((c) => c.name === positionals.join(' ')) ??
    COMMANDS.find((c) => c.takesArguments && positionals.slice(0, c.name.split(' ').length).join(' ') === c.name)
  );
}

function helpFor(positionals: string[]): string {
  const command = findCommand(positionals);
  if (command) return commandHelp(command);
  const group = COMMANDS.filter((c) => c.name.split(' ')[0] === positionals[0]);
  return group.length ? groupHelp(positionals[0]!, group) : overview(COMMANDS);
}

async function main(argv: string[]) {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        email: { type: 'string' },
        name: { type: 'string' },
        expires: { type: 'string' },
        'rate-limit': { type: 'string' },
        id: { type: 'string' },
        amount: { type: 'string' },
        'batch-size': { type: 'string' },
        hours: { type: 'string' },
        json: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (err) {
    // parseArgs reports unknown options and missing values as ERR_PARSE_ARGS_* errors.
    const positionals = argv.filter((a) => !a.startsWith('-'));
    throw new Refused((err as Error).message.split('. To specify a positional')[0]!, helpFor(positionals));
  }
  const { values, positionals } = parsed;
  if (positionals[0] === 'help') return void console.log(helpFor(positionals.slice(1)));
  if (values.help) return void console.log(helpFor(positionals));
  if (positionals.length === 0) throw new Refused('No command given', overview(COMMANDS));
  const command = findCommand(positionals);
  if (!command) {
    const isGroup = COMMANDS.some((c) => c.name.startsWith(`${positionals[0]} `));
    const what =
      isGroup && positionals.length === 1
        ? `"${positionals[0]}" needs a command`
        : `Unknown command: ${positionals.join(' ')}`;
    throw new Refused(what, helpFor(positionals.slice(0, 1)));
  }
  // The database code is loaded only now: help and refusals above answer at once.
  const { runCommand } = await import('./cli/run-command.ts');
  try {
    const args = positionals.slice(command.name.split(' ').length);
    await runCommand(command.name, args.length ? { ...values, videos: args.join(',') } : values);
  } catch (err) {
    if (err instanceof UsageError) throw new Refused(err.message, commandHelp(command));
    throw err;
  }
}

main(process.argv.slice(2)).catch(async (err) => {
  const { ConfigError } = await import('./config.ts');
  if (err instanceof ConfigError) {
    console.error(err.message);
    process.exit(2);
  }
  if (err instanceof Refused) {
    console.error(`Error: ${err.message}\n\n${err.help}`);
    process.exit(2);
  }
  console.error(err);
  process.exit(1);
});
