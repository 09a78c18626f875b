// A simulator port someone else holds is a setting to change (issue 32, point 9): the simulator
// names SIMULATOR_PORT and exits non-zero, instead of a bare "EADDRINUSE 4010".
import { spawn } from 'node:child_process';
import net from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { PROCESS_TEST_TIMEOUT_MS } from '../support/timeouts';

let taken: net.Server;
let port = 0;

beforeAll(async () => {
  taken = net.createServer();
  await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
  port = (taken.address() as net.AddressInfo).port;
});

afterAll(async () => {
  await new Promise((resolve) => taken.close(resolve));
});

it('says which setting to change when its port is taken, and exits non-zero', { timeout: PROCESS_TEST_TIMEOUT_MS }, async () => {
  const child = spawn(process.execPath, ['--import', 'tsx', 'simulator/main.ts'], {
    env: { ...process.env, SIMULATOR_PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  expect(code).toBe(1);
  expect(output).toContain(`The simulator cannot listen on port ${port} (EADDRINUSE): another program uses it. Set SIMULATOR_PORT to a free port`);
  expect(output).not.toMatch(/\n\s+at /);
});
