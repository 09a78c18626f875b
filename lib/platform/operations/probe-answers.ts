// The latest answer of each probe (GET /api/health, GET /api/ready), for server.mjs to repeat
// without Next.js while it is fresh. A load balancer, a monitor or an attacker polling a probe
// from hundreds of connections used to take the event loop from the lookups (Next's routing per
// poll: a lookup's median went from a few milliseconds to over a second under 300 pollers); the
// app still computes each answer, at most once per PROBE_ANSWER_TTL_MS, and server.mjs answers the
// polls in between (docs/operations.md, "Health, readiness and drain").

import { SERVER_BRIDGES } from '@/lib/platform/runtime/server-bridges.mjs';
/** Must match server.mjs. On globalThis: Next bundles each route separately. */
const PROBE_ANSWERS = SERVER_BRIDGES.probeAnswers;

/** How long server.mjs repeats an answer: the probes' own checks are shared for a second too. */
export const PROBE_ANSWER_TTL_MS = 1_000;

interface ProbeAnswer {
  status: number;
  body: string;
  expiresAt: number;
}

const holder = globalThis as typeof globalThis & { [PROBE_ANSWERS]?: Map<string, ProbeAnswer> };

type ProbePath = '/api/health' | '/api/ready';

/**
 * The probe's JSON answer, kept for server.mjs to repeat to the next polls of `path` for
 * PROBE_ANSWER_TTL_MS, or until `validUntil` if that comes sooner (a state that changes by itself).
 */
export function probeAnswer(path: ProbePath, body: unknown, status = 200, validUntil = Infinity): Response {
  const text = JSON.stringify(body);
  (holder[PROBE_ANSWERS] ??= new Map()).set(path, { status, body: text, expiresAt: Math.min(Date.now() + PROBE_ANSWER_TTL_MS, validUntil) });
  return new Response(text, { status, headers: { 'content-type': 'application/json' } });
}

/** The next poll of `path` goes to the app again (what the answer says just changed). */
export function forgetProbeAnswer(path: ProbePath): void {
  holder[PROBE_ANSWERS]?.delete(path);
}
