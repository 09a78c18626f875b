// What a CLI command is: its lines in the help and what it does, and what it answers.
import type { Actor } from '@/lib/core/audit/audit';
import type { Result } from '@/lib/platform/result';
import { CliError } from '../errors';
import { terminalSafe as safe } from '../terminal-text';

export interface CommandOutput {
  text: string;
  data: unknown;
  /** Not 0 when the answer itself is bad news (ledger:verify's differences): printed all the same. */
  exitCode?: number;
}

export type Options = Partial<Record<string, string | boolean>>;

/** The lines that follow one another in the help: what is typed, then what it does. */
export interface UsageLines {
  /** What is typed after the command's name; each further string is a line of more options, beneath it. */
  args: string[];
  /** What the command does, one string a line of the help. */
  description: [string, ...string[]];
}

/** A command's entry in the help (cli/usage.ts lays it out). */
export interface Usage extends UsageLines {
  /** Options explained apart, beneath the description (portal:invite's --link). */
  more?: UsageLines;
}

export interface Command {
  usage: Usage;
  run(args: string[], options: Options): Promise<CommandOutput>;
}

/** One capability's commands, by name. */
export type Commands = Record<string, Command>;

export const CLI_ACTOR: Actor = { kind: 'cli', name: process.env.USER };

export function unwrap<T>(result: Result<T>): T {
  if (!result.ok) throw new CliError(safe(result.error.message), result.error.code === 'not_found' ? 3 : 2);
  return result.value;
}
