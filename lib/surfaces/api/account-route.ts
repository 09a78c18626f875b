// Where every /api/cuenta request starts. proxy.ts already gave it its request id and set the
// security headers, and spent no global per-IP limit: these reads have their own. Here: the same
// credentials and refusals as /api/lotes (integrationApiRoute), with the account reads' own
// per-minute counter (ACCOUNT_API_PER_MINUTE).
import { consumeAccountApiLimit } from '@/lib/core/limits/limits';
import { integrationApiRoute, type BulkContext } from './bulk-route';

export type AccountContext = BulkContext;

export function accountRoute(handler: (request: Request, context: AccountContext) => Promise<Response>) {
  const route = integrationApiRoute<object>(consumeAccountApiLimit, 'account request failed', (request, context) => handler(request, context));
  return (request: Request): Promise<Response> => route(request, { params: Promise.resolve({}) });
}

/** The same, for a route with path parameters (an invoice's id). */
export function accountRouteWithParams<P>(handler: (request: Request, context: AccountContext, params: P) => Promise<Response>) {
  return integrationApiRoute<P>(consumeAccountApiLimit, 'account request failed', handler);
}
