// The latest answer of each probe (GET /api/health, GET /api/ready), for server.mjs to repeat
// without Next.js while it is fresh. A load balancer, a monitor or an attacker polling a probe
// from hundreds of connections used to take the event loop from the lookups (Next's routing per
// poll: a lookup's median went from a few milliseconds to over a second under 300 pollers); the
// app still computes each answer, at most once per PROBE_ANSWER_TTL_MS, and server.mjs answers the
// polls in between (docs/operations.md, "Health, readiness and drain").

/** Must match server.mjs. On globalThis: Next bundles each route separately. */
const PROBE_ANSWERS = Symbol.for('gateway.probeAnswers');

/** How long server.mjs repeats an answer: the probes' own checks are shared for a second too. */
export const PROBE_ANSWER_TTL_MS = 1_000;

interface ProbeAnswer {
  status: number;
  body: string;
  expiresAt: number;
}

const holder = globalThis as typeof globalThis & { [PROBE_ANSWERS]?: Map<string, ProbeAnswer> };

/** The probe's JSON answer, kept for server.mjs to repeat to the next polls of `path`. */
export function probeAnswer(path: '/api/health' | '/api/ready', body: unknown, status = 200): Response {
  const text = JSON.stringify(body);
  (holder[PROBE_ANSWERS] ??= new Map()).set(path, { status, body: text, expiresAt: Date.now() + PROBE_ANSWER_TTL_MS });
  return new Response(text, { status, headers: { 'content-type': 'application/json' } });
}
