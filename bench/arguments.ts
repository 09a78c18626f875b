// The benchmarks' command lines: `--help` prints the usage the entry file's opening comment gives,
// and a misspelt option is told in a line, with where the usage is, instead of a stack trace.
import fs from 'node:fs';
import { parseArgs, type ParseArgsConfig } from 'node:util';

/** The opening `//` comment of `file`, without its slashes. */
export function usageOf(file: string): string {
  const lines = fs.readFileSync(file, 'utf8').split('\n');
  const end = lines.findIndex((line) => !line.startsWith('//'));
  return lines
    .slice(0, end === -1 ? lines.length : end)
    .map((line) => line.replace(/^\/\/ ?/, ''))
    .join('\n');
}

/** parseArgs for the benchmark `command` (say "npm run bench") whose entry file is `file`. */
export function benchArguments<T extends ParseArgsConfig>(command: string, file: string, config: T): ReturnType<typeof parseArgs<T>> {
  const args = config.args ?? process.argv.slice(2);
  if (args.includes('--help') || args.includes('-h')) {
    console.log(usageOf(file));
    process.exit(0);
  }
  try {
    return parseArgs(config);
  } catch (error) {
    console.error(`${command}: ${error instanceof Error ? error.message : String(error)}\nThe options: ${command} -- --help`);
    process.exit(2);
  }
}
