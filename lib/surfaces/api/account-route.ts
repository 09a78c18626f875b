// Where every /api/cuenta request starts. proxy.ts already gave it its request id and set the
// security headers, and spent no global per-IP limit: these reads have their own. Here: the same two
// credential headers as the lookups, checked by the same directory (a wrong token costs no database
// statement), then the account reads' own per-minute counter (ACCOUNT_API_PER_MINUTE), then the
// handler with the integration resolved. Unexpected errors become the catalogs' 500, once, here.
import { env } from '@/lib/platform/env';
import { newRequestId, REQUEST_ID_HEADER } from '@/lib/platform/http/request-id';
import { integrationDirectory, type AuthenticatedIntegration } from '@/lib/core/integrations/directory';
import { requestClientAddress } from '@/lib/core/limits/client-ip';
import { consumeAccountApiLimit } from '@/lib/core/limits/limits';
import { logger } from '@/lib/platform/logging/logger';
import { credentialsFrom } from '@/lib/flows/lookups/credentials';
import { bulkErrors } from './bulk-responses';

const log = logger('api');

export interface AccountContext {
  integration: AuthenticatedIntegration;
  requestId: string;
}

export function accountRoute(handler: (request: Request, context: AccountContext) => Promise<Response>) {
  return async (request: Request): Promise<Response> => {
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
      if (!(await consumeAccountApiLimit(integration.nombre))) return bulkErrors.rateLimited(requestId);
      return await handler(request, { integration, requestId });
    } catch (error) {
      log.error({ err: error, requestId }, 'account request failed');
      return bulkErrors.unhandled(requestId);
    }
  };
}
