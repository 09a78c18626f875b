// Where every /api/lotes request starts. proxy.ts already gave it its request id, spent
// the global per-IP limit and set the security headers; here: the same two credential headers as
// the lookups, checked by the same directory, then /api/lotes' own per-minute counter, then the
// handler with the integration resolved. Unexpected errors become the catalogs' 500, once, here.
import { env } from '@/lib/platform/settings/env';
import { REQUEST_ID_HEADER } from '@/lib/platform/http/request-id';
import { integrationDirectory, type AuthenticatedIntegration } from '@/lib/core/integrations/directory';
import { requestClientAddress } from '@/lib/core/limits/client-ip';
import { logger } from '@/lib/platform/logging/logger';
import { credentialsFrom } from '@/lib/flows/lookups/credentials';
import { spendBulkApiLimit } from '@/lib/flows/bulk/pacing';
import { newRequestId } from '@/lib/platform/http/request-id';
import { bulkErrors } from './bulk-responses';

const log = logger('api');

export interface BulkContext {
  integration: AuthenticatedIntegration;
  requestId: string;
}

export function bulkRoute<P>(handler: (request: Request, context: BulkContext, params: P) => Promise<Response>) {
  return integrationApiRoute(spendBulkApiLimit, 'bulk job request failed', handler);
}

/**
 * An integrators' API route Next answers: the lookups' two credential headers checked by the
 * directory (a wrong token costs no database statement), then the route's own per-minute counter
 * (`spendLimit`), then the handler. Unexpected errors become the catalogs' 500, once, here.
 */
export function integrationApiRoute<P>(
  spendLimit: (integrationName: string) => Promise<{ allowed: boolean; resetAtMs: number }>,
  failureMessage: string,
  handler: (request: Request, context: BulkContext, params: P) => Promise<Response>,
) {
  return async (request: Request, route: { params: Promise<P> }): Promise<Response> => {
    const requestId = request.headers.get(REQUEST_ID_HEADER) ?? newRequestId();
    try {
      const settings = env();
      const { login, token, clientAddress } = credentialsFrom((name) => request.headers.get(name), requestClientAddress((name) => request.headers.get(name), settings));
      const authentication = await integrationDirectory().authenticate(login, token, clientAddress);
      if (authentication.status === 'missing') return bulkErrors.credentialsMissing(requestId);
      if (authentication.status === 'unavailable') return bulkErrors.unavailable(requestId);
      // A refused address is answered as unknown credentials, as on the catalogs: it reveals nothing.
      if (authentication.status !== 'authenticated') return bulkErrors.credentialsInvalid(requestId);
      const integration = authentication.integration;
      const spent = await spendLimit(integration.nombre);
      if (!spent.allowed) return bulkErrors.rateLimited(requestId, spent.resetAtMs);
      return await handler(request, { integration, requestId }, await route.params);
    } catch (error) {
      log.error({ err: error, requestId }, failureMessage);
      return bulkErrors.unhandled(requestId);
    }
  };
}
