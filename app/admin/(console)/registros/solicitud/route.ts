// GET /admin/registros/solicitud?identificador=req_… - the records list's search for a request id
// (proxy.ts sends such a search here): opens that request's record with an HTTP redirect; a
// replayed Idempotency-Key answer's id opens the record of the query it repeated, saying so; when
// no record has it, sends back to the list with ?solicitud=, which says why (its refusal trace).
// A page could only redirect after the list's skeleton had been sent (a client-side redirect).
import { consoleUserWithAccess } from '@/lib/surfaces/console/session';
import { recordIdForRequestId, recordOfReplay, typedRequestId } from '@/lib/core/request-ids/search';

export const dynamic = 'force-dynamic';

function redirectTo(location: string): Response {
  // A relative Location: the browser resolves it against the address it asked, whatever the host.
  return new Response(null, { status: 307, headers: { location, 'cache-control': 'no-store' } });
}

export async function GET(request: Request) {
  const searchParams = new URL(request.url).searchParams;
  const requestId = typedRequestId(searchParams.get('identificador') ?? searchParams.get('solicitud') ?? undefined);
  // Only the list's own filters go back to it (with the request id as its filter).
  const back = new URLSearchParams(searchParams);
  back.delete('identificador');
  if (requestId) back.set('solicitud', requestId);
  const list = `/admin/registros?${back}`;
  // Signed out (or mid sign-in): the list page sends to sign-in and back; nothing is looked up.
  if (!requestId || !(await consoleUserWithAccess())) return redirectTo(list);
  const recordId = await recordIdForRequestId(requestId);
  if (recordId !== undefined) return redirectTo(`/admin/registros/${recordId}`);
  const replayed = await recordOfReplay(requestId);
  return redirectTo(replayed ?? list);
}
