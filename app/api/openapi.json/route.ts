// GET /api/openapi.json - the OpenAPI 3.1 document of the integrator API, for this deployment.
import { publicOrigin } from '@/lib/platform/http/base-url';
import { buildOpenApiDocument } from '@/lib/surfaces/openapi/document';

export const dynamic = 'force-dynamic';

/** The document changes only with a deploy: built once per API address (at most a few), then served as text. */
const documents = new Map<string, string>();
const MAX_DOCUMENTS = 16;

function documentFor(baseUrl: string): string {
  let text = documents.get(baseUrl);
  if (text === undefined) {
    text = JSON.stringify(buildOpenApiDocument(baseUrl));
    if (documents.size < MAX_DOCUMENTS) documents.set(baseUrl, text);
  }
  return text;
}

export function GET(request: Request) {
  return new Response(documentFor(`${publicOrigin(request.headers)}/api`), {
    headers: { 'content-type': 'application/json', 'access-control-allow-origin': '*', 'cache-control': 'public, max-age=300' },
  });
}
