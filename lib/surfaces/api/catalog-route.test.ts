// The catalogs' one route answers a name that is no catalog itself (Next's proxy skips every path
// under /api/catalogos/): a 404 in the catalogs' shape that names the catalogs, with a request id
// and the API's security headers, for any method; nothing is looked up.
import { describe, expect, it } from 'vitest';
import { catalogRoutes } from './catalog-route';

const routes = catalogRoutes();
const unknown = { params: Promise.resolve({ catalogo: 'widgets' }) };

describe('the catalogs’ route, for a name that is no catalog', () => {
  it.each(['POST', 'GET', 'OPTIONS'] as const)('answers %s with a 404 that names the catalogs', async (method) => {
    const answer = await routes[method](new Request('http://gateway.test/api/catalogos/widgets', { method, body: method === 'POST' ? '{"nit":"576937K"}' : undefined }), unknown);
    expect(answer.status).toBe(404);
    expect(await answer.json()).toEqual({ message: 'No existe ese catálogo. Los catálogos son: /catalogos/cui-nit, /catalogos/rtu, /catalogos/omisos.' });
    expect(answer.headers.get('x-request-id')).toMatch(/^req_[0-9a-f]{20}$/);
    expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
  });
});
