import { env } from '@/lib/env';
import { readJsonBody, type BodyRead } from '@/lib/http/json-body';
import { newRequestId, REQUEST_ID_HEADER } from '@/lib/http/request-id';
import { withLogBindings } from '@/lib/logging/context';
import { logger } from '@/lib/logging/logger';
import { credentialsFrom, type Credentials } from '@/lib/lookups/credentials';

const log = logger('api');

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
    return withLogBindings({ requestId, path }, async () => {
      try {
        return await run({
          credentials: credentialsFrom(request.headers),
          readBody: () => readJsonBody(request, env().MAX_BODY_BYTES),
          requestId,
        });
      } catch (error) {
        log.error({ err: error }, 'lookup failed');
        return onUnhandled(requestId);
      }
    });
  };
}
