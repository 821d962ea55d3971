import { Command, CommanderError } from 'commander';
import { type Config, ConfigError, loadConfig } from '../config.js';
import { registerAccountCommands } from './commands/accounts.js';
import { registerKeyCommands, registerTokenCommands } from './commands/credentials.js';
import { registerGapsCommand } from './commands/gaps.js';
import { registerImportCommand } from './commands/import.js';
import { registerIndexCommands } from './commands/index-status.js';
import { registerInviteCommands } from './commands/invite.js';
import { registerValidateCommand } from './commands/validate.js';
import { registerWidgetDemoCommand } from './commands/widget-demo.js';
import { createCliContext } from './context.js';
import { terminalLine } from './terminal-text.js';

export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  env?: Record<string, string | undefined>;
}

/**
 * Runs one CLI invocation and returns its exit code. Every error (bad argument, unknown id,
 * bad origin) is one line on stderr and a non-zero code; nothing is changed by a failed command.
 */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  let config: Config;
  try {
    config = loadConfig(io.env ?? process.env);
  } catch (error) {
    io.stderr(`error: ${terminalLine(error instanceof ConfigError ? error.problems.join('; ') : String(error))}\n`);
    return 2;
  }
  const program = new Command('addressd')
    .description('Operator commands for the address validation service')
    .option('--json', 'print exactly one JSON object on stdout')
    .enablePositionalOptions(false)
    .exitOverride()
    .showSuggestionAfterError(true)
    // One line per error: commander's "(Did you mean account?)" joins the line it follows.
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr, outputError: (text, write) => write(`${terminalLine(text.trim().split('\n').join(' '))}\n`) });
  const ctx = createCliContext(config, () => program.opts<{ json?: boolean }>().json === true, io.stdout, io.stderr);
  registerAccountCommands(program, ctx);
  registerKeyCommands(program, ctx);
  registerTokenCommands(program, ctx);
  registerImportCommand(program, ctx);
  registerIndexCommands(program, ctx);
  registerInviteCommands(program, ctx);
  registerValidateCommand(program, ctx);
  registerWidgetDemoCommand(program, ctx);
  registerGapsCommand(program, ctx);
  // Every subcommand accepts --json after its own arguments too.
  for (const command of allCommands(program)) command.option('--json', 'print exactly one JSON object on stdout');
  program.hook('preAction', (_root, action) => {
    if (action.opts<{ json?: boolean }>().json) program.setOptionValue('json', true);
  });

  try {
    await program.parseAsync(argv, { from: 'user' });
    return ctx.exitCode ?? 0;
  } catch (error) {
    if (error instanceof CommanderError) {
      return error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.exitCode === 0 ? 0 : 1;
    }
    // A message may quote a file's or a store's text: escaped like every other line (terminal-text.ts).
    io.stderr(`error: ${terminalLine(error instanceof Error ? error.message : String(error))}\n`);
    return 1;
  } finally {
    await ctx.close();
  }
}

function allCommands(command: Command): Command[] {
  return command.commands.flatMap((c) => [c, ...allCommands(c)]);
}
