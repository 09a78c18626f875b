// Graceful drain (docs/operations.md): on SIGTERM the instance says it is draining (GET
// /api/health answers 503, so the load balancer stops sending), closes idle connections and
// answers every later request with `connection: close`, finishes the requests in flight (lookups
// settle their holds as usual) and exits as soon as none is left, or at SHUTDOWN_DRAIN_TIMEOUT_MS,
// whichever comes first. It keeps listening meanwhile, so the balancer's health checks read the
// 503 instead of a refused connection, and a request it still sends is served, never dropped.
// Set the deadline below the platform's kill timeout; a lookup still running then is left to the
// hold sweeper, as a crash would be.

// The app reads this (lib/platform/operations/draining.ts) to answer its health check 503.
import { SERVER_BRIDGES } from '../../platform/runtime/server-bridges.mjs';
const DRAINING = SERVER_BRIDGES.draining;

// What the app keeps in memory between its periodic writes (lib/platform/runtime/flush-before-exit.ts) is
// written once more before the process ends, within FLUSH_BEFORE_EXIT_MS: a database that is away
// loses those counts, as a crash would, but never holds the exit.
const FLUSH_BEFORE_EXIT_MS = 3_000;

export class Drain {
  #log;
  #deadlineMs;
  #server;
  #inFlight = 0;
  #exiting = false;
  draining = false;

  constructor({ log, deadlineMs }) {
    this.#log = log;
    this.#deadlineMs = deadlineMs;
  }

  /** Counts a request until its answer closes; during the drain, its connection closes after it. */
  track(response) {
    this.#inFlight++;
    response.once('close', () => {
      this.#inFlight--;
      if (this.draining) this.#exitWhenIdle();
    });
    // A request that arrives on a kept-alive connection during the drain is served, and its
    // connection closed after the answer, so the client's next request goes to another instance.
    if (this.draining) response.setHeader('connection', 'close');
  }

  /** Drains `server` on SIGINT or SIGTERM. */
  onSignals(server) {
    this.#server = server;
    for (const signal of ['SIGINT', 'SIGTERM']) {
      process.once(signal, () => {
        this.draining = true;
        globalThis[DRAINING] = true;
        this.#log.info({ signal, inFlight: this.#inFlight, deadlineMs: this.#deadlineMs }, 'draining: finishing the requests in flight');
        server.closeIdleConnections();
        setTimeout(() => {
          if (this.#exiting) return;
          this.#log.warn({ inFlight: this.#inFlight }, 'drain deadline passed; exiting with requests in flight');
          void this.#flushThenExit();
        }, this.#deadlineMs).unref();
        this.#exitWhenIdle();
      });
    }
  }

  #exitWhenIdle() {
    if (this.#inFlight > 0 || this.#exiting) return;
    this.#log.info('drained: no request in flight; exiting');
    this.#server?.close();
    void this.#flushThenExit();
  }

  async #flushThenExit() {
    this.#exiting = true;
    const flushes = [...(globalThis[SERVER_BRIDGES.flushBeforeExit] ?? new Map())];
    const settled = Promise.allSettled(
      flushes.map(([name, flush]) =>
        flush().catch((error) => this.#log.error({ err: error, flush: name }, 'writing in-memory counts before exit failed')),
      ),
    );
    const deadline = new Promise((resolve) => setTimeout(resolve, FLUSH_BEFORE_EXIT_MS).unref());
    if ((await Promise.race([settled.then(() => 'done'), deadline])) !== 'done') {
      this.#log.warn({ flushes: flushes.map(([name]) => name) }, 'in-memory counts not written before exit: the database did not answer in time');
    }
    process.exit(0);
  }
}
