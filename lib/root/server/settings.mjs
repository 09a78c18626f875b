// The server's own settings, read from the environment at start; a wrong one stops the start with
// a message naming it.
import net from 'node:net';

/** A whole number of milliseconds from the environment, at least `min`; the start stops otherwise. */
export function readMilliseconds(log, name, value, fallback, min) {
  if (value === undefined || value === '') return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < min) {
    log.fatal({ [name]: value }, `cannot start: ${name} must be a whole number of milliseconds, ${min} or more`);
    process.exit(1);
  }
  return parsed;
}

export function readDrainTimeout(log, value) {
  if (value === undefined || value === '') return 25_000;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 0) {
    log.fatal({ SHUTDOWN_DRAIN_TIMEOUT_MS: value }, 'cannot start: SHUTDOWN_DRAIN_TIMEOUT_MS must be a whole number of milliseconds');
    process.exit(1);
  }
  return parsed;
}

export function parseUrl(value) {
  if (!value) return undefined;
  try {
    return new URL(value);
  } catch {
    return undefined;
  }
}

/**
 * A port someone else holds is a setting to change, said as such (not a stack trace), and said
 * before Next prepares: preparing opens the embedded database, and while V8 still compiles its
 * WebAssembly in the background, process.exit() waits for it (nodejs/node#36616): on a busy machine
 * a start that had said EADDRINUSE kept running for over a minute. The server's own listen says the
 * same (with this handler) if the port is taken in between.
 */
export function portRefusal(log, port, hostname) {
  return (error) => {
    if (error.code !== 'EADDRINUSE' && error.code !== 'EACCES') throw error;
    log.fatal({ port, hostname }, `cannot listen on ${hostname}:${port} (${error.code}): set PORT to a free port, in the environment or in .env`);
    process.exit(1);
  };
}

/** Resolves once the port was free a moment ago; stops the start otherwise. */
export function refuseTakenPort(log, port, hostname) {
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.once('error', portRefusal(log, port, hostname));
    probe.listen(port, hostname, () => probe.close(resolve));
  });
}
