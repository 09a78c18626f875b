import fs from 'node:fs';
import net from 'node:net';
import type { PGlite } from '@electric-sql/pglite';
import { logger } from '@/lib/platform/logging/logger';

// PostgreSQL's wire protocol (v3): before the startup message a client may ask for TLS or GSS
// encryption (answered "N": not here) or send a cancel request (PGlite cannot cancel: ignored).
const SSL_REQUEST = 80877103;
const GSSENC_REQUEST = 80877104;
const CANCEL_REQUEST = 80877102;
const MAX_MESSAGE_BYTES = 256 * 1024 * 1024;
const SYNC = Buffer.from([0x53, 0, 0, 0, 4]);
const ROLLBACK = simpleQuery('ROLLBACK');
/** The backend messages the socket looks for in what it forwards to a client. */
const NOTIFICATION_RESPONSE = 0x41;
const READY_FOR_QUERY = 0x5a;
/**
 * How long a client's commit waits for this process to act on the notifications it raised (a
 * reload of the credentials takes milliseconds): past it, the client goes on regardless.
 */
const NOTIFIED_WAIT_MS = 2_000;

/** This process acting on a notification a client raised (db/client.ts: its listeners of the channel). */
export type NotificationHandler = (channel: string) => Promise<void>;

export interface SharedDatabase {
  close(): Promise<void>;
}

/**
 * Serves the process's embedded database to other processes (the CLI) on a unix socket, while
 * this process keeps using it directly. PGlite is one PostgreSQL session, so the clients and this
 * process take turns: a client holds the database from its first message until the end of its
 * transaction (a Sync or a simple query with no transaction open), and meanwhile this process's own
 * queries and transactions wait on PGlite's transaction lock, which the turn holds. So no statement
 * of one ever lands inside another's transaction (docs/decisions.md, "One embedded database").
 *
 * A notification a client's transaction raises (pg_notify: a revoked token, say) reaches the
 * shared session, which this process LISTENs on, but in the client's answers, where PGlite's own
 * listeners never see it: `notified` is told instead, and the client hears that its transaction
 * committed only once `notified` has settled (at most NOTIFIED_WAIT_MS). So when the CLI says a
 * token is revoked, this process has already reloaded its credentials.
 */
export async function serveEmbeddedDatabase(client: PGlite, socketPath: string, notified: NotificationHandler = async () => {}): Promise<SharedDatabase> {
  const log = logger('database');
  const sessions = new Set<ClientSession>();
  const server = net.createServer((socket) => {
    const session = new ClientSession(client, socket, log, notified);
    sessions.add(session);
    void session.finished.then(() => sessions.delete(session));
  });
  fs.rmSync(socketPath, { force: true });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => {
      server.off('error', reject);
      resolve();
    });
  });
  // Only this user may connect (the socket has no password, as the directory has none).
  fs.chmodSync(socketPath, 0o600);
  server.on('error', (error) => log.error({ err: error }, 'embedded database socket failed'));
  return {
    close: async () => {
      const leaving = [...sessions].map((session) => session.end());
      await Promise.all([...leaving, new Promise<void>((resolve) => server.close(() => resolve()))]);
      fs.rmSync(socketPath, { force: true });
    },
  };
}

/** One client connection: splits its bytes into protocol messages and runs them in turns. */
class ClientSession {
  private buffer = Buffer.alloc(0);
  private started = false;
  private readonly pending: Buffer[] = [];
  private running = false;
  private closed = false;
  private endTurn?: () => void;
  private readonly answers: ClientAnswers;
  private markFinished!: () => void;
  /** Settles once the connection has closed and the session is as the client found it. */
  readonly finished = new Promise<void>((resolve) => (this.markFinished = resolve));

  constructor(
    private readonly client: PGlite,
    private readonly socket: net.Socket,
    private readonly log: ReturnType<typeof logger>,
    private readonly notified: NotificationHandler,
  ) {
    this.answers = new ClientAnswers((bytes) => void (socket.writable && socket.write(bytes)));
    socket.on('data', (data) => this.receive(data));
    socket.on('error', () => socket.destroy());
    socket.on('close', () => {
      this.closed = true;
      this.pending.length = 0;
      if (!this.running) void this.leave();
    });
  }

  /** Closes the connection (the server is stopping); settles when the session is left clean. */
  end(): Promise<void> {
    this.socket.destroy();
    return this.finished;
  }

  private receive(data: Buffer): void {
    this.buffer = Buffer.concat([this.buffer, data]);
    for (;;) {
      const message = this.nextMessage();
      if (!message) break;
      this.pending.push(message);
    }
    void this.run();
  }

  private nextMessage(): Buffer | undefined {
    const headerBytes = this.started ? 5 : 8;
    if (this.buffer.length < headerBytes) return undefined;
    const length = this.started ? 1 + this.buffer.readInt32BE(1) : this.buffer.readInt32BE(0);
    if (length < 4 || length > MAX_MESSAGE_BYTES) {
      this.socket.destroy();
      return undefined;
    }
    if (this.buffer.length < length) return undefined;
    const message = this.buffer.subarray(0, length);
    this.buffer = this.buffer.subarray(length);
    if (this.started) {
      // Terminate ends this client's connection, not the session the others share.
      if (message[0] === 0x58) {
        this.socket.end();
        return undefined;
      }
      return message;
    }
    const code = message.readInt32BE(4);
    if (code === SSL_REQUEST || code === GSSENC_REQUEST) {
      this.socket.write('N');
      return this.nextMessage();
    }
    if (code === CANCEL_REQUEST) {
      this.socket.end();
      return undefined;
    }
    this.started = true;
    return message;
  }

  private async run(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      while (this.pending.length > 0 && !this.closed) {
        const message = this.pending.shift()!;
        this.endTurn ??= await takeTurn(this.client);
        if (this.closed) break;
        await this.client.runExclusive(() => this.client.execProtocolRawStream(message, { onRawData: (data) => this.answers.take(data) }));
        if (endsExchange(message) && !this.client.isInTransaction()) {
          this.releaseTurn();
          // Committed: this process acts on what the transaction announced (with the database
          // free again) before the client hears that it is done.
          const channels = this.answers.takeNotifications();
          if (channels.length > 0) await this.tell(channels);
        }
        this.answers.release();
      }
    } catch (error) {
      this.log.error({ err: error }, 'embedded database client failed');
      this.socket.destroy();
      this.closed = true;
    } finally {
      this.running = false;
      if (this.closed) await this.leave();
    }
  }

  /** A client that goes mid-transaction leaves the session as it found it: the rest rolled back. */
  private async leave(): Promise<void> {
    if (!this.endTurn) return this.markFinished();
    try {
      await this.client.runExclusive(async () => {
        await this.client.execProtocolRaw(SYNC);
        if (this.client.isInTransaction()) await this.client.execProtocolRaw(ROLLBACK);
      });
    } catch (error) {
      this.log.error({ err: error }, 'rolling back a departed embedded database client failed');
    } finally {
      this.releaseTurn();
      this.markFinished();
    }
  }

  private async tell(channels: string[]): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<void>((resolve) => (timer = setTimeout(resolve, NOTIFIED_WAIT_MS)));
    const acted = Promise.allSettled(channels.map((channel) => this.notified(channel)));
    await Promise.race([acted, waited]).finally(() => clearTimeout(timer));
  }

  private releaseTurn(): void {
    const endTurn = this.endTurn;
    this.endTurn = undefined;
    endTurn?.();
  }
}

/**
 * What PGlite answers one client, on its way to the socket: copied out of PGlite's memory (it hands
 * out a view that its next output overwrites, and a write the socket has to queue would send those
 * later bytes instead), and read message by message for two kinds. A NotificationResponse's channel
 * is noted; a ReadyForQuery, and whatever follows it, waits for release(), so the client's commit
 * is answered only after this process has acted on its notifications.
 */
class ClientAnswers {
  /** The start of a message whose end is in a later chunk. */
  private partial = Buffer.alloc(0);
  private held: Buffer[] = [];
  private readonly notifications = new Set<string>();

  constructor(private readonly send: (bytes: Buffer) => void) {}

  take(chunk: Uint8Array): void {
    const data = this.partial.length > 0 ? Buffer.concat([this.partial, chunk]) : Buffer.from(chunk);
    let complete = 0;
    let readyAt: number | undefined;
    while (data.length - complete >= 5) {
      const end = complete + 1 + data.readInt32BE(complete + 1);
      if (end > data.length) break;
      if (data[complete] === NOTIFICATION_RESPONSE) this.notifications.add(notificationChannel(data.subarray(complete, end)));
      if (data[complete] === READY_FOR_QUERY) readyAt ??= complete;
      complete = end;
    }
    this.partial = data.subarray(complete);
    const cut = this.held.length > 0 ? 0 : (readyAt ?? complete);
    if (cut > 0) this.send(data.subarray(0, cut));
    if (cut < complete) this.held.push(data.subarray(cut, complete));
  }

  /** The channels notified since the last call. */
  takeNotifications(): string[] {
    const channels = [...this.notifications];
    this.notifications.clear();
    return channels;
  }

  /** Sends what was held back. */
  release(): void {
    for (const bytes of this.held.splice(0)) this.send(bytes);
  }
}

/** A NotificationResponse: 'A', its length, the notifying process's id, then the channel's name (NUL-terminated) and the payload. */
function notificationChannel(message: Buffer): string {
  return message.toString('utf8', 9, message.indexOf(0, 9));
}

/**
 * Waits for PGlite's transaction lock, the one its own query() and transaction() take, and holds
 * it until the returned function is called.
 */
function takeTurn(client: PGlite): Promise<() => void> {
  return new Promise((granted) => {
    void client._runExclusiveTransaction(() => new Promise<void>((release) => granted(release)));
  });
}

/** A Sync, a simple query or the startup message: the client then waits for the answer, and the turn can end. */
function endsExchange(message: Buffer): boolean {
  return message[0] === 0x53 || message[0] === 0x51 || message[0] === 0x00;
}

function simpleQuery(text: string): Buffer {
  const body = Buffer.from(`${text}\0`);
  const header = Buffer.alloc(5);
  header.write('Q', 0);
  header.writeInt32BE(body.length + 4, 1);
  return Buffer.concat([header, body]);
}
