// GET /api/estado - the public status of the sources (lib/reactions/status-page): no credentials, no
// cookies, readable from any origin. Shared for STATUS_PAGE_CACHE_SECONDS by every caller of this
// instance, and cacheable as long by browsers and shared caches.
import { statusPageSettings } from '@/lib/reactions/status-page/settings';
import { publicStatus, STATUS_UNAVAILABLE_MESSAGE } from '@/lib/reactions/status-page/status';

export const dynamic = 'force-dynamic';

export async function GET() {
  const status = await publicStatus();
  const headers = {
    'access-control-allow-origin': '*',
    'cache-control': status ? `public, max-age=${statusPageSettings().STATUS_PAGE_CACHE_SECONDS}` : 'no-store',
  };
  if (!status) return Response.json({ message: STATUS_UNAVAILABLE_MESSAGE }, { status: 503, headers });
  return Response.json(status, { headers });
}
