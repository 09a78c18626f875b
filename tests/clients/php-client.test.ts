// The PHP client library (clients/php, issue 69): its table of the contract's messages and its
// Composer package are what the app's OpenAPI document generates; `composer archive` packs it as a
// zip, a clean project installs it from that zip alone (Packagist off), and the shared scenario
// (tests/clients/scenario.ts, its steps in tests/clients/escenario.php) runs there against the built
// app and the simulator.
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cp, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'vitest';
import { describeScenario } from './scenario';

const run = promisify(execFile);
const SCENARIO = path.join(process.cwd(), 'tests', 'clients', 'escenario.php');
const version = () => (JSON.parse(readFileSync('clients/php/composer.json', 'utf8')) as { version: string }).version;

let workDirectory: string | undefined;
let project: string;

/** Debian's Composer, kept to this test's own directories and off the network (.ci/run installs php-cli, php-curl, php-zip and composer). */
function composer(args: string[], cwd: string) {
  return run('composer', [...args, '--no-interaction', '--no-ansi'], { cwd, env: { ...process.env, COMPOSER_HOME: path.join(workDirectory!, 'composer'), COMPOSER_CACHE_DIR: path.join(workDirectory!, 'cache'), COMPOSER_DISABLE_NETWORK: '1' } });
}

describeScenario({
  name: 'the PHP client library',
  login: 'cliente-php',
  baseUrlName: 'baseUrl',
  version,
  async install() {
    workDirectory = await mkdtemp(path.join(tmpdir(), 'cliente-php-'));
    const source = path.join(workDirectory, 'fuente');
    await cp(path.join(process.cwd(), 'clients', 'php'), source, { recursive: true });
    const packages = path.join(workDirectory, 'paquetes');
    await composer(['archive', '--format=zip', `--dir=${packages}`, '--file=pasarela-contribuyentes-cliente'], source);
    expect(readdirSync(packages)).toEqual(['pasarela-contribuyentes-cliente.zip']);
    project = path.join(workDirectory, 'proyecto');
    await mkdir(project);
    writeFileSync(
      path.join(project, 'composer.json'),
      JSON.stringify({ repositories: [{ type: 'artifact', url: packages }, { 'packagist.org': false }], require: { 'pasarela-contribuyentes/cliente': version() } }),
    );
    await composer(['install', '--no-progress'], project);
  },
  async run(step, data) {
    // Run from the installing project: its vendor/autoload.php is the only way to the library.
    const { stdout } = await run('php', [SCENARIO, step, JSON.stringify(data)], { cwd: project });
    return JSON.parse(stdout) as unknown;
  },
  async cleanup() {
    if (workDirectory) await rm(workDirectory, { recursive: true, force: true });
  },
});
