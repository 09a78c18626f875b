// The CLI's commands, assembled: each capability declares its own, with its lines in the help,
// in cli/commands/<capability>.ts; the order below is the help's.
import { activationCommands } from './commands/activation';
import { allowedIpCommands } from './commands/allowed-ips';
import { billingCommands } from './commands/billing';
import { booksCommands } from './commands/books';
import { constanciaCommands } from './commands/constancias';
import type { CommandOutput, Commands, Options } from './commands/command';
import { detailCommands } from './commands/details';
import { flagCommands } from './commands/flags';
import { integrationCommands } from './commands/integrations';
import { invoiceCommands } from './commands/invoices';
import { ledgerCommands } from './commands/ledger';
import { personalDataCommands } from './commands/personal-data';
import { portalCommands } from './commands/portal';
import { recordCommands } from './commands/records';
import { statementCommands } from './commands/statements';
import { tokenCommands } from './commands/tokens';
import { topUpCommands } from './commands/top-ups';
import { userCommands } from './commands/users';
import { CliError, MissingArgument } from './errors';
import { terminalSafe as safe } from './terminal-text';
import { usageText } from './usage';

const CAPABILITIES: Commands[] = [
  integrationCommands,
  statementCommands,
  ledgerCommands,
  invoiceCommands,
  booksCommands,
  flagCommands,
  billingCommands,
  topUpCommands,
  tokenCommands,
  allowedIpCommands,
  detailCommands,
  activationCommands,
  userCommands,
  portalCommands,
  recordCommands,
  personalDataCommands,
  constanciaCommands,
];

/** The capabilities' commands as one record; a name declared twice would silently lose one command. */
export function assembleCommands(capabilities: Commands[]): Commands {
  const all: Commands = {};
  for (const capability of capabilities) {
    for (const [name, command] of Object.entries(capability)) {
      if (Object.hasOwn(all, name)) throw new Error(`The CLI command ${name} is declared twice`);
      all[name] = command;
    }
  }
  return all;
}

export const COMMANDS = assembleCommands(CAPABILITIES);

export const USAGE = usageText(COMMANDS);

export async function runCommand(command: string, args: string[], options: Options): Promise<CommandOutput> {
  if (!Object.hasOwn(COMMANDS, command)) throw new CliError(`no existe el comando «${safe(command)}»\n\n${USAGE}`);
  try {
    return await COMMANDS[command]!.run(args, options);
  } catch (error) {
    if (error instanceof MissingArgument) throw new CliError(`${error.message}\n\n${USAGE}`, error.exitCode);
    throw error;
  }
}
