// Imported first by cli/main.ts, before any module creates a logger at load time.
// The person at the terminal reads the CLI's sentences; the structured log (JSON lines, for a log
// store) reaches stderr only when CLI_LOG_LEVEL asks for it. Not LOG_LEVEL: that is the app's, and
// the .env the CLI shares with the app sets it to info.
import { LOG_LEVELS, sendLogsToStderr } from '@/lib/platform/logging/logger';

/** CLI_LOG_LEVEL, unset meaning silent; undefined when it names no level (cli/main.ts refuses to run). */
export function cliLogLevel(): string | undefined {
  const level = process.env.CLI_LOG_LEVEL?.trim() || 'silent';
  return (LOG_LEVELS as readonly string[]).includes(level) ? level : undefined;
}

sendLogsToStderr(() => cliLogLevel() ?? 'silent');
