// npm run cli -- <command> [arguments] [--json]
// The operator CLI. It calls the same lib/ functions as the console; every change is audited.
// First: the CLI's stdout is its answer (--json output), so log lines go to stderr.
import '@/lib/runtime/refuse-unsupported-node.mjs';
import './logs-to-stderr';
import '@/lib/load-env-files';
import { parseArgs } from 'node:util';
import { closeDatabase, database } from '@/db/client';
import { applyMigrations } from '@/db/migrate';
import { describeError } from '@/lib/logging/errors';
import { CliError, NEGATIVE_AMOUNT_MARK, runCommand, USAGE } from './commands';
import { terminalSafe, terminalSafeJson } from './terminal-text';

async function main(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseCommandLine(argv);
  } catch (error) {
    console.error(`error: ${terminalSafe((error as Error).message)}\n\n${USAGE}`);
    return 2;
  }
  const { positionals, values } = parsed;
  const [command, ...args] = positionals;
  if (!command || values.help) {
    console.log(USAGE);
    return command ? 0 : 1;
  }
  try {
    await applyMigrations(await database());
    const output = await runCommand(command, args, values);
    if (values.json) console.log(terminalSafeJson(output.data));
    else console.log(output.text);
    return 0;
  } catch (error) {
    if (error instanceof CliError) {
      if (values.json) console.log(JSON.stringify({ error: error.message }));
      else console.error(`error: ${error.message}`);
      return error.exitCode;
    }
    throw error;
  } finally {
    await closeDatabase();
  }
}

// parseArgs would read a negative amount such as -25.00 as an option; mark it as a value instead.
const NEGATIVE_AMOUNT = /^-\d[\d,]*(\.\d+)?$/;

function parseCommandLine(argv: string[]) {
  return parseArgs({
    args: argv.map((arg) => (NEGATIVE_AMOUNT.test(arg) ? `${NEGATIVE_AMOUNT_MARK}${arg.slice(1)}` : arg)),
    allowPositionals: true,
    options: {
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
      tariff: { type: 'string' },
      balance: { type: 'string' },
      enable: { type: 'string' },
      disable: { type: 'string' },
      note: { type: 'string' },
      name: { type: 'string' },
      role: { type: 'string' },
      // Refused with an explanation (users:create): passwords never come from the command line.
      password: { type: 'string' },
      'password-stdin': { type: 'boolean', default: false },
      integration: { type: 'string' },
      lookup: { type: 'string' },
      limit: { type: 'string' },
      identifier: { type: 'string' },
      'request-id': { type: 'string' },
      kind: { type: 'string' },
      since: { type: 'string' },
      until: { type: 'string' },
      out: { type: 'string' },
      'export-dir': { type: 'string' },
      label: { type: 'string' },
      expires: { type: 'string' },
      overlap: { type: 'string' },
      token: { type: 'string' },
      set: { type: 'string' },
      anywhere: { type: 'boolean', default: false },
      batch: { type: 'string' },
      'pause-ms': { type: 'string' },
      restart: { type: 'boolean', default: false },
      // integrations:details (DETAIL_OPTIONS in commands.ts)
      'legal-name': { type: 'string' },
      nit: { type: 'string' },
      'technical-name': { type: 'string' },
      'technical-email': { type: 'string' },
      'technical-phone': { type: 'string' },
      'billing-name': { type: 'string' },
      'billing-email': { type: 'string' },
      'billing-phone': { type: 'string' },
    },
  });
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    // Unexpected (a database failure, say): what failed, never the values a query was given.
    console.error(`error: ${terminalSafe(describeError(error))}`);
    process.exit(1);
  },
);
