// GET /.well-known/jwks.json - every key that signs or ever signed constancias and the log's heads
// (RFC 7517), each with the window in which it may sign (docs/constancias.md). Public, cacheable.
import { jwksBody } from '@/lib/surfaces/api/constancias';

export const dynamic = 'force-dynamic';

export async function GET() {
  return Response.json(await jwksBody(), {
    headers: { 'content-type': 'application/jwk-set+json', 'access-control-allow-origin': '*', 'cache-control': 'public, max-age=300' },
  });
}
