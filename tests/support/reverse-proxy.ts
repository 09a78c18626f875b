// The reverse proxy deploy/compose puts in front of the app: Caddy, run from the Caddyfile we ship
// (its upstreams pointed at the test's instances, plain HTTP on a free local port, no admin
// endpoint). Caddy carries every client's requests over keep-alive connections to each instance
// and sets X-Forwarded-For to the address each client connected from: the flood tests use it to
// see what one client's refusals do to the others that share those connections.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export interface RunningReverseProxy {
  url: string;
  close(): Promise<void>;
}

const SHIPPED_CADDYFILE = path.join(import.meta.dirname, '../../deploy/compose/Caddyfile');
/** The upstreams as the shipped file names them (Compose's two services). */
const SHIPPED_UPSTREAMS = 'app-1:3000 app-2:3000';

export async function startReverseProxy(upstreams: string[]): Promise<RunningReverseProxy> {
  const port = await freePort();
  const shipped = fs.readFileSync(SHIPPED_CADDYFILE, 'utf8');
  if (!shipped.includes(SHIPPED_UPSTREAMS)) throw new Error(`deploy/compose/Caddyfile no longer names ${SHIPPED_UPSTREAMS}: update tests/support/reverse-proxy.ts`);
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'gateway-caddy-'));
  const caddyfile = path.join(directory, 'Caddyfile');
  // No admin endpoint (two proxies at once would fight over :2019) and no automatic HTTPS.
  fs.writeFileSync(caddyfile, `{\n\tadmin off\n\tauto_https off\n}\n${shipped.replace(SHIPPED_UPSTREAMS, upstreams.map((upstream) => new URL(upstream).host).join(' '))}`);
  const child = spawn('caddy', ['run', '--adapter', 'caddyfile', '--config', caddyfile], {
    env: { ...process.env, PUBLIC_HOST: `http://127.0.0.1:${port}`, XDG_DATA_HOME: directory, XDG_CONFIG_HOME: directory, HOME: directory },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let output = '';
  child.stderr!.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4_000)));
  try {
    await listening(child, port, () => output);
  } catch (error) {
    child.kill('SIGKILL');
    fs.rmSync(directory, { recursive: true, force: true });
    throw error;
  }
  return {
    url: `http://127.0.0.1:${port}`,
    async close() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Resolves once Caddy accepts connections on `port`; rejects if it exits or takes longer than 10 s. */
async function listening(child: ChildProcess, port: number, output: () => string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`caddy exited (${child.exitCode}): ${output()}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => {
        socket.destroy();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`caddy did not listen on ${port} within 10 s: ${output()}`);
}
