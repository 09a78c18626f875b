// The help is assembled from what each capability declares: every command in it once, nothing in it
// that is not a command, and a command run without an argument it needs answers with the help.
import { describe, expect, it } from 'vitest';
import type { Command } from './commands/command';
import { assembleCommands, COMMANDS, runCommand, USAGE } from './commands';
import { CliError } from './errors';

/** The help's lines that start a command's entry: two spaces, then its name. */
const ENTRY = /^ {2}([a-z-]+:[a-z-]+)(?: |$)/;
/** Between two lines of what a command does: they start at the help's 41st column. */
const NEXT_DESCRIPTION_LINE = `\n${' '.repeat(40)}`;

describe('the CLI help', () => {
  it('starts one entry for each command, in the order the capabilities are assembled, and none for anything else', () => {
    const named = USAGE.split('\n').flatMap((line) => ENTRY.exec(line)?.[1] ?? []);
    expect(named).toEqual(Object.keys(COMMANDS));
    expect(named.length).toBeGreaterThan(30);
  });

  it('says what each command does, its lines one beneath the other', () => {
    for (const [name, { usage }] of Object.entries(COMMANDS)) {
      for (const description of [usage.description, usage.more?.description ?? []]) {
        expect(description.every((line) => line !== '' && line.trim() === line), name).toBe(true);
        expect(USAGE, name).toContain(description.join(NEXT_DESCRIPTION_LINE));
      }
    }
  });
});

describe('the CLI commands', () => {
  it('refuses two capabilities that declare the same name', () => {
    const command = (description: string): Command => ({ usage: { args: [], description: [description] }, run: async () => ({ text: '', data: null }) });
    expect(() => assembleCommands([{ 'users:list': command('uno') }, { 'users:list': command('otro') }])).toThrow('users:list');
    expect(Object.keys(assembleCommands([{ 'users:list': command('uno') }, { 'users:create': command('otro') }]))).toEqual(['users:list', 'users:create']);
  });

  it('answers a missing argument, and a name that is no command, with the help', async () => {
    await expect(runCommand('integrations:show', [], {})).rejects.toSatisfy(
      (error) => error instanceof CliError && error.exitCode === 2 && error.message === `falta la integración (su id o su nombre)\n\n${USAGE}`,
    );
    for (const name of ['integrations:explode', 'constructor', 'toString']) {
      await expect(runCommand(name, [], {})).rejects.toSatisfy(
        (error) => error instanceof CliError && error.exitCode === 2 && error.message === `no existe el comando «${name}»\n\n${USAGE}`,
      );
    }
  });
});
