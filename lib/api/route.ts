import { env } from '@/lib/env';
import { readJsonBody, type BodyRead } from '@/lib/http/json-body';
import { newRequestId, REQUEST_ID_HEADER } from '@/lib/http/request-id';
import { withLogBindings } from '@/lib/logging/context';
import { logger } from '@/lib/logging/logger';
import { credentialsFrom, type Credentials } from '@/lib/lookups/credentials';
import { lookupOfPath } from '@/lib/lookups/paths';
import { newLookupTrace, withLookupTrace, type LookupTrace } from '@/lib/metrics/lookup-trace';
import { metrics } from '@/lib/metrics/registry';

const log = logger('api');
const lookupLog = logger('lookup');

export interface LookupContext {
  credentials: Credentials;
  readBody: () => Promise<BodyRead>;
  requestId: string;
}

/**
 * Wraps a lookup route: resolves the request id (set by proxy.ts), the credentials and a lazy
 * body reader, and turns any unexpected error into the route family's 500 without details. Every
 * log line written while the lookup runs carries its request id and path.
 */
export function lookupRoute(run: (context: LookupContext) => Promise<Response>, onUnhandled: (requestId: string) => Response) {
  return async function POST(request: Request): Promise<Response> {
    const requestId = request.headers.get(REQUEST_ID_HEADER) ?? newRequestId();
    const path = new URL(request.url).pathname;
    const trace = newLookupTrace();
    const startedAt = performance.now();
    return withLogBindings({ requestId, path }, () =>
      withLookupTrace(trace, async () => {
        let response: Response;
        try {
          response = await run({
            credentials: credentialsFrom(request.headers),
            readBody: () => readJsonBody(request, env().MAX_BODY_BYTES),
            requestId,
          });
        } catch (error) {
          log.error({ err: error }, 'lookup failed');
          trace.outcome = 'unhandled';
          response = onUnhandled(requestId);
        }
        reportLookup(lookupOfPath(path) ?? path, trace, response.status, performance.now() - startedAt);
        return response;
      }),
    );
  };
}

/**
 * One JSON log line and the metrics of a finished lookup. The integration's name goes on the
 * line (logs are per request anyway) but on metrics only with METRICS_INTEGRATION_LABEL.
 */
function reportLookup(lookup: string, trace: LookupTrace, status: number, elapsedMs: number): void {
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
    },
    'lookup',
  );
}

function round(ms: number): number {
  return Math.round(ms * 10) / 10;
}
