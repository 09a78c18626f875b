// npm run cli -- <command> [arguments] [--json]
// The operator CLI. It calls the same lib/ functions as the console; every change is audited.
// First: the CLI's stdout is its answer (--json output), so log lines go to stderr, and only when
// CLI_LOG_LEVEL asks for them: the person at the terminal reads the CLI's Spanish sentences.
import '@/lib/platform/runtime/refuse-unsupported-node.mjs';
import './logs-to-stderr';
import '@/lib/platform/settings/load-env-files';
import { parseArgs } from 'node:util';
import { closeDatabase, database, EmbeddedDatabaseInUseError } from '@/db/client';
import { applyMigrations } from '@/db/migrate';
import { EnvError } from '@/lib/platform/settings/fragment';
import { alerts } from '@/lib/reactions/alerts/dispatcher';
import { integratorNotifier } from '@/lib/reactions/integrator-notifications/notifier';
import { subscribeReactions } from '@/lib/root/reactions';
import { allSettings } from '@/lib/root/settings';
import { describeError } from '@/lib/platform/logging/errors';
import { LOG_LEVELS } from '@/lib/platform/logging/logger';
import { parseQuetzales } from '@/lib/platform/money';
import { asSubmission, firstSubmissionAnswer, rememberSubmissionAnswer, SubmissionAlreadyMade } from '@/lib/core/submissions/claim';
import { runCommand, USAGE } from './commands';
import { NEGATIVE_AMOUNT_MARK } from './commands/arguments';
import { CLI_ACTOR } from './commands/command';
import { CliError } from './errors';
import { describeActor } from '@/lib/core/audit/audit';
import { decideFromPublishedOnly } from '@/lib/core/invoices/decision';
import { cliLogLevel } from './logs-to-stderr';
import { terminalSafe, terminalSafeJson } from './terminal-text';

/** A CLI sending's key: what an operator or a script can type and keep. */
const SUBMISSION_KEY = /^[A-Za-z0-9._:-]{1,100}$/;
/** Sendings are claimed per operator, as the audit names them. */
const CLI_SUBMITTER = describeActor(CLI_ACTOR);

async function main(argv: string[]): Promise<number> {
  if (cliLogLevel() === undefined) {
    console.error(`Error: CLI_LOG_LEVEL admite ${LOG_LEVELS.join(', ')} (se recibió «${terminalSafe(process.env.CLI_LOG_LEVEL)}»)`);
    return 2;
  }
  let parsed;
  try {
    parsed = parseCommandLine(argv);
  } catch (error) {
    console.error(`Error: ${commandLineProblem(error as Error & { code?: string })}\n\n${USAGE}`);
    return 2;
  }
  const { positionals, values } = parsed;
  const [command, ...args] = positionals;
  if (!command || values.help) {
    console.log(USAGE);
    return values.help ? 0 : 1;
  }
  try {
    // Every capability's settings at once, as the server's start checks them.
    allSettings();
    // Whether a top-up is invoiced is the running service's answer, never this shell's settings.
    decideFromPublishedOnly();
    await applyMigrations(await database());
    // A balance the CLI lowers is told to the integrator too (written here, sent by the server).
    integratorNotifier().attachTo(alerts());
    subscribeReactions();
    const key = values.envio;
    if (key !== undefined && !SUBMISSION_KEY.test(key)) {
      throw new CliError('--envio admite de 1 a 100 letras, números, «.», «_», «:» o «-»', 2);
    }
    const output = await asSubmission(CLI_SUBMITTER, key, () => runCommand(command, args, values));
    if (key !== undefined) await rememberSubmissionAnswer(CLI_SUBMITTER, key, output.text);
    if (values.json) console.log(terminalSafeJson(output.data));
    else console.log(output.text);
    return output.exitCode ?? 0;
  } catch (error) {
    if (error instanceof SubmissionAlreadyMade) {
      // The change was made by an earlier run with this key: done, not done again.
      const first = await firstSubmissionAnswer(CLI_SUBMITTER, error.key);
      if (values.json) console.log(terminalSafeJson({ alreadyMade: true, envio: error.key, result: first ?? null }));
      else console.log(`Esta orden ya se había hecho con --envio ${terminalSafe(error.key)} y no se repitió.${first ? ` Su resultado:\n${first}` : ''}`);
      return 0;
    }
    if (error instanceof CliError) {
      if (values.json) console.log(JSON.stringify({ error: error.message }));
      else console.error(`Error: ${error.message}`);
      return error.exitCode;
    }
    throw error;
  } finally {
    await closeDatabase();
  }
}

/** node:util's parseArgs explains in English; the operator reads Spanish. */
function commandLineProblem(error: Error & { code?: string }): string {
  const option = terminalSafe(/'(-[^' ]+)/.exec(error.message)?.[1] ?? '');
  if (error.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    return `la opción «${option}» no existe (para un argumento que empieza con «-», escríbalo al final, después de «--»)`;
  }
  if (error.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
    return error.message.includes('does not take an argument') ? `la opción ${option} no lleva valor` : `la opción ${option} necesita un valor`;
  }
  return `no se entiende la línea de órdenes (${terminalSafe(error.message)})`;
}

// parseArgs would read a negative amount such as -25.00 or -Q 5 as an option; mark it as a value
// instead. Whatever the amounts' one parser (the console's too) takes is an amount.
function isNegativeAmount(arg: string): boolean {
  return arg.startsWith('-') && !arg.startsWith('--') && parseQuetzales(arg) !== undefined;
}

function parseCommandLine(argv: string[]) {
  return parseArgs({
    args: argv.map((arg) => (isNegativeAmount(arg) ? `${NEGATIVE_AMOUNT_MARK}${arg.slice(1)}` : arg)),
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
      email: { type: 'string' },
      // Refused with an explanation (users:create): passwords never come from the command line.
      password: { type: 'string' },
      'password-stdin': { type: 'boolean', default: false },
      integration: { type: 'string' },
      lookup: { type: 'string' },
      limit: { type: 'string' },
      identifier: { type: 'string' },
      'request-id': { type: 'string' },
      motivo: { type: 'string' },
      // portal:invite --link and portal:reset-password: the operator's reason (--motivo too).
      reason: { type: 'string' },
      link: { type: 'boolean', default: false },
      kind: { type: 'string' },
      since: { type: 'string' },
      until: { type: 'string' },
      out: { type: 'string' },
      mes: { type: 'string' },
      estado: { type: 'string' },
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
      // integrations:details (DETAIL_OPTIONS in commands/details.ts)
      'legal-name': { type: 'string' },
      nit: { type: 'string' },
      'technical-name': { type: 'string' },
      'technical-email': { type: 'string' },
      'technical-phone': { type: 'string' },
      'billing-name': { type: 'string' },
      'billing-email': { type: 'string' },
      'billing-phone': { type: 'string' },
      envio: { type: 'string' },
      // integrations:constancias
      tarifa: { type: 'string' },
      retencion: { type: 'string' },
      'retencion-legal': { type: 'string' },
    },
  });
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    // Unexpected (a database failure, say): what failed, never the values a query was given. The
    // technical detail stays as the software says it (it is what the logs and the docs quote).
    if (error instanceof EmbeddedDatabaseInUseError) {
      console.error(
        `Error: la base de datos integrada ${terminalSafe(error.dataDir)} está en uso por el proceso ${error.ownerPid}` +
          `${error.ownerHasSocket ? ', que no responde en su socket' : ''}. Deténgalo primero (la aplicación comparte la base de datos ` +
          'con la CLI mientras se ejecuta; otros procesos no), o use PostgreSQL (DATABASE_URL) para compartir una base de datos entre procesos.',
      );
    } else if (error instanceof EnvError) {
      console.error(`Error: la configuración no es válida; corrija estas variables:\n${error.problems.map((problem) => `  - ${terminalSafe(problem)}`).join('\n')}`);
    } else {
      console.error(`Error inesperado: ${terminalSafe(describeError(error))}`);
    }
    process.exit(1);
  },
);
