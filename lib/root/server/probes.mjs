// Probes (GET /api/health, /api/ready) are answered without Next.js while the app's last answer
// is fresh (lib/platform/operations/probe-answers.ts): a poll then costs a map lookup and a write. And a
// connection that polls more often than every PROBE_PACE_MS waits for its turn: however many
// connections poll as fast as they are answered, the probes take a bounded share of the event loop
// and the lookups keep theirs (load balancers poll every few seconds, and never wait here).
import { SERVER_BRIDGES } from '../../platform/runtime/server-bridges.mjs';
const PROBE_PATHS = new Set(['/api/health', '/api/ready']);
const PROBE_ANSWERS = SERVER_BRIDGES.probeAnswers;
const PROBE_PACE_MS = 250;
const lastProbeOnSocket = new WeakMap();

export function isProbe(request) {
  return request.method === 'GET' && PROBE_PATHS.has(request.url);
}

/** Answers a probe from the app's last answer, or has Next answer it (`handle`) when that is stale or the instance drains. */
export function answerProbe(request, response, handle, drain) {
  const socket = request.socket;
  const answer = () => {
    lastProbeOnSocket.set(socket, Date.now());
    const fresh = globalThis[PROBE_ANSWERS]?.get(request.url);
    if (!fresh || fresh.expiresAt <= Date.now() || drain.draining) {
      void handle(request, response);
      return;
    }
    response.writeHead(fresh.status, { 'content-type': 'application/json' });
    response.end(fresh.body);
  };
  const waitMs = (lastProbeOnSocket.get(socket) ?? -Infinity) + PROBE_PACE_MS - Date.now();
  if (waitMs > 0) setTimeout(answer, waitMs);
  else answer();
}
