// Where every lookup request starts (the registries' two route files and the catalogs' one,
// catalog-route.ts, wrap their handlers with lookupRoute).
// The lookups do not go through proxy.ts: Next's proxy layer cost each lookup about as much as the
// rest of the gateway's own work (docs/performance.md, "What changed, and what each step was worth"), so what the proxy
// does for the rest of the API happens here instead, in the same order: a fresh request id, the
// global per-IP limit, and the security headers on every answer.
import { env } from '@/lib/platform/settings/env';
import type { IncomingMessage } from 'node:http';
import { ClientAbortedError, nodeHeader, readJsonBody, readNodeJsonBody, type BodyRead } from '@/lib/platform/http/json-body';
import { newRequestId, REQUEST_ID_HEADER } from '@/lib/platform/http/request-id';
import { securityHeaders } from '@/lib/platform/http/security-headers';
import { requestClientAddress, requestClientIp } from '@/lib/core/limits/client-ip';
import { GLOBAL_LIMIT_BODY } from '@/lib/core/limits/global-limit-body';
import { consumeGlobalLimit } from '@/lib/core/limits/limits';
import { runWithRequestContext } from '@/lib/platform/http/request-context';
import { logger } from '@/lib/platform/logging/logger';
import { credentialsFrom, type Credentials } from '@/lib/flows/lookups/credentials';
import { LOOKUP_PATHS } from '@/lib/vocabulary/lookups';
import { IDEMPOTENCY_KEY_HEADER } from '@/lib/core/idempotency/key';
import { newLookupTrace, type LookupTrace } from '@/lib/platform/http/lookup-trace';
import { metrics } from '@/lib/platform/metrics/registry';
import type { LookupKind } from '@/db/schema';
import { countRefusal } from '@/lib/core/rollups/refusals';
import { traceUnserved } from '@/lib/core/request-traces/buffer';
import { answerResponse, jsonAnswer, type LookupAnswer } from './responses';
import { registerDirectLookup } from './direct-lookups';
import { asksForConstancia, CONSTANCIA_REQUEST_HEADER, ConstanciaRequest } from './constancia-answer';
import type { LookupReceipt } from '@/lib/flows/lookups/receipt';

/** nginx's status for a request whose client closed the connection first; never sent (nobody is left to read it). */
const CLIENT_ABORTED_STATUS = 499;
const CLIENT_ABORTED_OUTCOME = 'client_aborted';

const log = logger('api');
const lookupLog = logger('lookup');

export interface LookupContext<Outcome> {
  credentials: Credentials;
  readBody: () => Promise<BodyRead>;
  requestId: string;
  /** The Idempotency-Key header as sent (null when absent); only the catalogs read it (lib/core/idempotency). */
  idempotencyKey: string | null;
  /** The receipt asked for with `x-constancia: true`, written with the lookup's record. */
  receipt?: LookupReceipt<Outcome>;
}

let headersOfEveryAnswer: Array<[string, string]> | undefined;

/** The API's security headers (lib/platform/http/security-headers.ts), the same for every lookup answer. */
function lookupSecurityHeaders(): Array<[string, string]> {
  headersOfEveryAnswer ??= Object.entries(
    securityHeaders({ https: (env().NEXTAUTH_URL ?? '').startsWith('https://'), development: process.env.NODE_ENV === 'development', noStore: true }),
  ).map(([name, value]) => [name.toLowerCase(), value]);
  return headersOfEveryAnswer;
}

/** The global per-IP limit's 429: the limiter's plain text, as the proxy answers it elsewhere. */
function globalLimitAnswer(): LookupAnswer {
  return { status: 429, headers: { 'content-type': 'text/plain; charset=utf-8' }, body: GLOBAL_LIMIT_BODY };
}

/** Every answer on a lookup's path carries the API's security headers and its request id. */
function withHeaders(answer: LookupAnswer, requestId: string): LookupAnswer {
  for (const [name, value] of lookupSecurityHeaders()) answer.headers[name] = value;
  answer.headers[REQUEST_ID_HEADER] = requestId;
  return answer;
}

/**
 * What a lookup reads of its request, whether Next hands it over as a web Request or server.mjs
 * as Node received it (lib/surfaces/api/direct-lookups.ts): a header, the JSON body, and whether the
 * client has gone.
 */
interface LookupRequest {
  header(name: string): string | null;
  readJsonBody(maxBytes: number): Promise<BodyRead>;
  clientGone(): boolean;
}

function fromWebRequest(request: Request): LookupRequest {
  return {
    header: (name) => request.headers.get(name),
    readJsonBody: (maxBytes) => readJsonBody(request, maxBytes),
    clientGone: () => request.signal.aborted,
  };
}

function fromNodeRequest(message: IncomingMessage): LookupRequest {
  return {
    header: (name) => nodeHeader(message, name),
    readJsonBody: (maxBytes) => readNodeJsonBody(message, maxBytes),
    // Next's request signal says the same: the connection closed before the answer was written.
    clientGone: () => message.socket.destroyed,
  };
}

/**
 * Wraps a lookup route: gives the request a fresh id (one sent by the client is replaced, so ids
 * stay unique), spends the global per-IP limit (its 429 is the limiter's plain text, counted as a
 * refusal and traced, never recorded), then runs the lookup with its credentials and a lazy body
 * reader and turns any unexpected error into the route family's 500 without details (traced by its
 * request id for support, lib/core/request-traces). Every answer carries the
 * request id and the security headers; every log line written while the lookup runs carries its
 * request id and path, and each lookup past the global limit ends with one line and its metrics
 * (reportLookup).
 *
 * The same lookup answers twice over: as the route's POST (Next calls it), and registered for
 * server.mjs, which answers a POST to the route's exact path itself once the route is loaded
 * (lib/surfaces/api/direct-lookups.ts, docs/decisions.md "The lookups are answered before Next's router").
 */
export function lookupRoute<Outcome>(
  lookup: LookupKind,
  run: (context: LookupContext<Outcome>) => Promise<Outcome>,
  render: (outcome: Outcome, requestId: string) => LookupAnswer,
  onUnhandled: (requestId: string) => LookupAnswer,
) {
  // Other methods get what Next would answer by itself (405; OPTIONS: 204), with the same headers.
  // A 405's id leads support somewhere too: it is a refusal (counted and traced, never recorded).
  const otherMethod = (status: 204 | 405) => async () => {
    const requestId = newRequestId();
    if (status === 405) countRefusal({ lookup, reason: 'method_not_allowed', requestId });
    return answerResponse(withHeaders({ status, headers: { allow: 'POST, OPTIONS' }, body: null }, requestId));
  };
  // Answered whatever happens, in the route family's shape: only the global limit's store can
  // throw this far (everything past it is caught in answer()); Next would answer a bare 500.
  const answered = async (request: LookupRequest): Promise<LookupAnswer> => {
    const requestId = newRequestId();
    try {
      return withHeaders(await answer(request, requestId), requestId);
    } catch (error) {
      // Outside the lookup's log context: the line names its request id and path itself.
      log.error({ err: error, requestId, path: LOOKUP_PATHS[lookup] }, 'lookup failed');
      traceUnserved({ requestId, lookup, cause: 'unhandled' });
      return withHeaders(onUnhandled(requestId), requestId);
    }
  };
  registerDirectLookup(LOOKUP_PATHS[lookup], (message) => answered(fromNodeRequest(message)));
  return {
    async POST(request: Request): Promise<Response> {
      return answerResponse(await answered(fromWebRequest(request)));
    },
    GET: otherMethod(405),
    PUT: otherMethod(405),
    PATCH: otherMethod(405),
    DELETE: otherMethod(405),
    OPTIONS: otherMethod(204),
  };

  async function answer(request: LookupRequest, requestId: string): Promise<LookupAnswer> {
    const settings = env();
    if (!(await consumeGlobalLimit(requestClientIp(request.header, settings)))) {
      countRefusal({ lookup, reason: 'ip_rate_limited', requestId });
      return globalLimitAnswer();
    }
    const trace = newLookupTrace();
    const startedAt = performance.now();
    // The route's own path: the same text a parse of request.url gives, without a URL per lookup.
    return runWithRequestContext({ logBindings: { requestId, path: LOOKUP_PATHS[lookup] }, lookupTrace: trace }, async () => {
      let answer: LookupAnswer;
      let bodyTooLarge = false;
      let requestBody: unknown = null;
      const readBody = async () => {
        const read = await request.readJsonBody(settings.MAX_BODY_BYTES);
        if (!read.ok && read.problem === 'too_large') bodyTooLarge = true;
        if (read.ok) requestBody = read.value;
        return read;
      };
      try {
        const clientAddress = requestClientAddress(request.header, settings);
        const receipt = asksForConstancia(request.header(CONSTANCIA_REQUEST_HEADER))
          ? new ConstanciaRequest<Outcome>({ lookup, requestId, integration: () => trace.integration, requestBody: () => requestBody }, render)
          : undefined;
        const outcome = await run({
          credentials: credentialsFrom(request.header, clientAddress),
          readBody,
          requestId,
          idempotencyKey: request.header(IDEMPOTENCY_KEY_HEADER),
          receipt,
        });
        answer = receipt ? receipt.answerOf(outcome) : render(outcome, requestId);
      } catch (error) {
        if (error instanceof ClientAbortedError) {
          // The client hung up before its request was complete: nothing ran past the body (no
          // hold, no source call, no record), nobody reads this answer, and nothing failed here.
          trace.outcome = CLIENT_ABORTED_OUTCOME;
          answer = { status: CLIENT_ABORTED_STATUS, headers: {}, body: null };
        } else {
          log.error({ err: error }, 'lookup failed');
          trace.outcome = 'unhandled';
          // Its id must lead support somewhere. Nothing was charged without a
          // record: a capture is written with its record, in one statement. Should a record exist
          // after all (the error came after it, or the journal writes it later), the search opens it.
          traceUnserved({ requestId, integrationId: trace.integrationId, lookup, cause: 'unhandled' });
          answer = onUnhandled(requestId);
        }
      }
      // The rest of an oversized body is not worth reading: the connection closes after the 400
      // (server.mjs lets the client finish reading it first), and the client's next request opens
      // a fresh one instead of queueing behind megabytes nobody reads.
      if (bodyTooLarge) answer.headers.connection = 'close';
      reportLookup(lookup, trace, answer.status, performance.now() - startedAt, request.clientGone());
      return answer;
    });
  }
}

/**
 * A path beside the lookups' that is none of them (/api/catalogos/<not a catalog>): Next's proxy
 * skips the lookups' paths, so this does what it would (a fresh request id, the global per-IP
 * limit, the security headers) and answers 404 with `body` for any method.
 */
export function unservedLookupPath(body: { message: string }): (request: Request) => Promise<Response> {
  return async (request) => {
    const requestId = newRequestId();
    const settings = env();
    const limited = !(await consumeGlobalLimit(requestClientIp((name) => request.headers.get(name), settings)));
    const answer: LookupAnswer = limited
      ? globalLimitAnswer()
      : jsonAnswer(404, body, requestId);
    return answerResponse(withHeaders(answer, requestId));
  };
}

/**
 * One JSON log line and the metrics of a finished lookup. The integration's name goes on the
 * line (logs are per request anyway) but on metrics only with METRICS_INTEGRATION_LABEL.
 */
function reportLookup(lookup: string, trace: LookupTrace, status: number, elapsedMs: number, clientGone: boolean): void {
  const outcome = trace.outcome ?? 'unknown';
  const registry = metrics();
  const integration = env().METRICS_INTEGRATION_LABEL ? (trace.integration ?? '') : '';
  registry.lookups.inc({ lookup, outcome, status: String(status), integration });
  registry.lookupSeconds.observe({ lookup }, elapsedMs / 1000);
  registry.lookupRoundTrips.observe({ lookup }, trace.databaseRoundTrips);
  for (const [stage, ms] of Object.entries(trace.stagesMs)) registry.stageSeconds.observe({ lookup, stage }, ms / 1000);
  lookupLog.info(
    {
      integration: trace.integration ?? null,
      lookup,
      status,
      outcome,
      durationMs: round(elapsedMs),
      stagesMs: Object.fromEntries(Object.entries(trace.stagesMs).map(([stage, ms]) => [stage, round(ms)])),
      upstream: trace.upstream ?? null,
      dbRoundTrips: trace.databaseRoundTrips,
      // The client closed its connection before the answer: it never read it (a lookup that had
      // reached its source ran to its end anyway, charged and recorded as the status says).
      ...(clientGone || status === CLIENT_ABORTED_STATUS ? { clientAborted: true } : {}),
    },
    'lookup',
  );
}

function round(ms: number): number {
  return Math.round(ms * 10) / 10;
}
