// A throwaway Redis (redis-server from the system's packages) for the two-instance benchmark when
// REDIS_URL is not given, and for the tests that need a real one.
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';

export interface ThrowawayRedis {
  url: string;
  stop(): Promise<void>;
}

export async function startThrowawayRedis(port: number): Promise<ThrowawayRedis> {
  const server: ChildProcess = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
    stdio: 'ignore',
  });
  const failed = new Promise<never>((_, reject) => {
    server.once('error', (error) => reject(new Error(`redis-server could not start (${error.message}); install it or set REDIS_URL`)));
    server.once('exit', (code) => reject(new Error(`redis-server exited with code ${code}`)));
  });
  const deadline = Date.now() + 10_000;
  for (;;) {
    const listening = await Promise.race([canConnect(port), failed]);
    if (listening) break;
    if (Date.now() > deadline) throw new Error('redis-server did not listen within 10 s');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url: `redis://127.0.0.1:${port}`,
    stop: () =>
      new Promise((resolve) => {
        if (server.exitCode !== null) return resolve();
        server.removeAllListeners('exit');
        server.once('exit', () => resolve());
        server.kill('SIGTERM');
      }),
  };
}

function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
