// `npm run bench -- --help` prints the usage bench/main.ts's opening comment gives, and a misspelt
// option ends the run in one line that says where the usage is.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { usageOf } from './arguments';

const MAIN = path.join(import.meta.dirname, 'main.ts');
const runBench = (args: string[]) => spawnSync(process.execPath, ['--import', 'tsx', MAIN, ...args], { encoding: 'utf8', timeout: 60_000 });

describe('the benchmark command line', () => {
  it('reads the usage from the opening comment, without its slashes', () => {
    const usage = usageOf(MAIN);
    expect(usage.split('\n')[0]).toBe('npm run bench [-- --seconds 5 --connections 1,50 --reps 3]');
    expect(usage).toContain('npm run bench -- --constancias');
    expect(usage).not.toMatch(/^\/\//m);
    expect(usage).not.toContain('import ');
  });

  it('prints it for --help and starts nothing', () => {
    const run = runBench(['--help']);
    expect(run.status).toBe(0);
    expect(run.stdout).toBe(`${usageOf(MAIN)}\n`);
  });

  it('tells a misspelt option in one line, with where the usage is', () => {
    const run = runBench(['--conections', '50']);
    expect(run.status).toBe(2);
    expect(run.stderr).toBe("npm run bench: Unknown option '--conections'\nThe options: npm run bench -- --help\n");
  });
});
