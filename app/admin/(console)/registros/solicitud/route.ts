// GET /admin/registros/solicitud?identificador=req_… - the records list's search for a request id
// (proxy.ts sends such a search here): opens that request's record with an HTTP redirect; a
// replayed Idempotency-Key answer's id opens the record of the query it repeated, saying so; when
// no record has it, sends back to the list with ?solicitud=, which says why (its refusal trace).
// A page could only redirect after the list's skeleton had been sent (a client-side redirect).
import { requestIdSearchRedirect } from '@/lib/surfaces/console/records';

export const dynamic = 'force-dynamic';

export async function GET(request: Request) {
  return requestIdSearchRedirect(request);
}
