// The Python client library (clients/python, issue 69): its generated models match the app's
// OpenAPI document; it builds into a wheel with Debian's pip and setuptools, installs from that
// wheel alone into an empty virtual environment, and the shared scenario (tests/clients/scenario.ts,
// its steps in tests/clients/escenario.py) runs there against the built app and the simulator.
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'vitest';
import { describeScenario } from './scenario';

const run = promisify(execFile);
// Debian's interpreter, with its pip, setuptools and wheel (.ci/run installs them): the wheel is built as a user would.
const PYTHON = existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';
const SCENARIO = path.join(process.cwd(), 'tests', 'clients', 'escenario.py');

let workDirectory: string | undefined;
let venvPython: string;

describeScenario({
  name: 'the Python client library',
  login: 'cliente-py',
  baseUrlName: 'base_url',
  // Its notice check takes the body as bytes too.
  alsoAnswers: { aviso: { bytes: true } },
  version: () => /^version = "([^"]+)"$/m.exec(readFileSync('clients/python/pyproject.toml', 'utf8'))![1]!,
  async install() {
    workDirectory = await mkdtemp(path.join(tmpdir(), 'cliente-py-'));
    const source = path.join(workDirectory, 'fuente');
    await cp(path.join(process.cwd(), 'clients', 'python'), source, { recursive: true });
    const wheels = path.join(workDirectory, 'ruedas');
    await run(PYTHON, ['-m', 'pip', 'wheel', '--no-deps', '--no-build-isolation', '--no-index', '--wheel-dir', wheels, source], { cwd: workDirectory });
    const [wheel] = readdirSync(wheels);
    expect(wheel).toMatch(/^pasarela_contribuyentes-\d+\.\d+\.\d+-py3-none-any\.whl$/);
    const environment = path.join(workDirectory, 'entorno');
    await run(PYTHON, ['-m', 'venv', environment]);
    await run(path.join(environment, 'bin', 'pip'), ['install', '--no-index', '--disable-pip-version-check', path.join(wheels, wheel!)]);
    venvPython = path.join(environment, 'bin', 'python');
  },
  async run(step, data) {
    // Run outside the repository's directory: only the installed wheel can be imported.
    const { stdout } = await run(venvPython, [SCENARIO, step, JSON.stringify(data)], { cwd: workDirectory, env: { ...process.env, PYTHONNOUSERSITE: '1', PYTHONPATH: '' } });
    return JSON.parse(stdout) as unknown;
  },
  async cleanup() {
    if (workDirectory) await rm(workDirectory, { recursive: true, force: true });
  },
});
