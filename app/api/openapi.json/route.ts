// GET /api/openapi.json - the OpenAPI 3.1 document of the integrator API, for this deployment.
import { publicOrigin } from '@/lib/http/base-url';
import { buildOpenApiDocument } from '@/lib/openapi/document';

export const dynamic = 'force-dynamic';

export function GET(request: Request) {
  return Response.json(buildOpenApiDocument(`${publicOrigin(request.headers)}/api`), {
    headers: { 'access-control-allow-origin': '*', 'cache-control': 'public, max-age=300' },
  });
}
