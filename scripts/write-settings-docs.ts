// npm run docs:settings: writes docs/operations.md's settings section (between its markers) from
// each capability's settings as lib/root/settings.ts assembles them: the name, what it is when
// unset in development (and whether production requires it), and its documentation line.
// tests/docs/settings-docs.test.ts fails until it is run after a change to a setting.
import fs from 'node:fs';
import path from 'node:path';
import { EnvError } from '@/lib/platform/settings/fragment';
import { parseEnv, SETTINGS_FRAGMENTS } from '@/lib/root/settings';

export const OPERATIONS_GUIDE = path.resolve('docs/operations.md');
export const SETTINGS_START = '<!-- settings:start (npm run docs:settings writes it from lib/root/settings.ts) -->';
export const SETTINGS_END = '<!-- settings:end -->';

/** The settings production refuses to start without, as the start says them. */
function requiredInProduction(): Set<string> {
  try {
    parseEnv({ APP_ENV: 'production' });
    return new Set();
  } catch (error) {
    if (!(error instanceof EnvError)) throw error;
    return new Set(error.problems.map((problem) => problem.split(':')[0]!));
  }
}

function shown(value: unknown): string {
  if (value === undefined) return 'unset';
  return `\`${typeof value === 'string' ? value : JSON.stringify(value)}\``;
}

const cell = (text: string) => text.replaceAll('|', '\\|');

/** The section: a table per capability, in the root's order. */
export function settingsMarkdown(): string {
  const development = parseEnv({}) as Record<string, unknown>;
  const required = requiredInProduction();
  const tables = SETTINGS_FRAGMENTS.map((fragment) => {
    const rows = Object.entries(fragment.docs as Record<string, string>).map(([name, line]) => {
      const unset = `${shown(development[name])}${required.has(name) ? '; required in production' : ''}`;
      return `| \`${name}\` | ${cell(unset)} | ${cell(line)} |`;
    });
    return [`**${fragment.title}**`, '', '| Setting | Unset (development) | What |', '|---|---|---|', ...rows].join('\n');
  });
  return [SETTINGS_START, ...tables, SETTINGS_END].join('\n\n');
}

/** The guide as it should be: its text, with the settings section written from the code. */
export function currentOperationsGuide(): string {
  const guide = fs.readFileSync(OPERATIONS_GUIDE, 'utf8');
  const start = guide.indexOf(SETTINGS_START);
  const end = guide.indexOf(SETTINGS_END);
  if (start < 0 || end < start) throw new Error(`${OPERATIONS_GUIDE} has no settings section between ${SETTINGS_START} and ${SETTINGS_END}`);
  return guide.slice(0, start) + settingsMarkdown() + guide.slice(end + SETTINGS_END.length);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  fs.writeFileSync(OPERATIONS_GUIDE, currentOperationsGuide());
  console.log(`settings section written to ${path.relative(process.cwd(), OPERATIONS_GUIDE)}`);
}
