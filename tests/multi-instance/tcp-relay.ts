// A TCP relay between one app instance and PostgreSQL or Redis that the test can cut: while cut,
// nothing passes (queries hang, as behind a network partition or a server stopped with SIGSTOP);
// restoring drops the cut connections so the pool opens fresh ones. What the app sent while cut
// is kept, so a test can count the commands it sent into the silence. Stopped, it drops every
// connection and every new one at once, as a server that was shut down.
import net from 'node:net';

export interface TcpRelay {
  port: number;
  cut(): void;
  /** Drops every connection and refuses new ones (a stopped server) until restore(). */
  stop(): void;
  restore(): void;
  /** Everything the app sent while the relay was cut (latin1), across its connections. */
  sentWhileCut(): string;
  /** Everything the app sent through the relay (latin1), across its connections. */
  sent(): string;
  close(): Promise<void>;
}

export async function startTcpRelay(targetHost: string, targetPort: number): Promise<TcpRelay> {
  let cut = false;
  let sentWhileCut = '';
  let sent = '';
  const pairs = new Set<[net.Socket, net.Socket]>();
  const dropAll = () => {
    for (const [client, upstream] of pairs) {
      client.destroy();
      upstream.destroy();
    }
  };
  const server = net.createServer((client) => {
    const upstream = net.connect(targetPort, targetHost);
    const pair: [net.Socket, net.Socket] = [client, upstream];
    pairs.add(pair);
    const forward = (from: net.Socket, to: net.Socket) =>
      from.on('data', (chunk: Buffer) => {
        if (from === client) sent += chunk.toString('latin1');
        if (!cut) to.write(chunk);
        else if (from === client) sentWhileCut += chunk.toString('latin1');
      });
    forward(client, upstream);
    forward(upstream, client);
    const close = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', close).on('close', close);
    upstream.on('error', close).on('close', close);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    port,
    cut: () => {
      cut = true;
    },
    stop: () => {
      // Connections are refused, as by a host with nothing listening on the port.
      server.close();
      dropAll();
    },
    sentWhileCut: () => sentWhileCut,
    sent: () => sent,
    restore: () => {
      dropAll();
      cut = false;
      if (!server.listening) server.listen(port, '127.0.0.1');
    },
    close: () =>
      new Promise<void>((resolve) => {
        dropAll();
        if (server.listening) server.close(() => resolve());
        else resolve();
      }),
  };
}
