// The one handler behind the console's identifier search forms (records, "¿Quién consultó?"):
// reads the posted form (or an old link's query), keeps the NIT or CUI behind a reference and
// answers 303 to the page with ?busqueda=bq_… and the form's other fields.
import type { ConsoleRole } from '@/db/schema';
import { consoleUserWithAccess, hasRole } from '@/lib/flows/auth/session';
import { MAX_FORM_FIELD_LENGTH, postedFormFields } from '@/lib/platform/http/posted-form';
import { typedRequestId } from '@/lib/core/request-ids/typed';
import { isSearchReference, referenceSearch, SEARCH_REFERENCE_PARAM, searchedIdentifier } from '@/lib/core/personal-data/search-references';
export { EXPIRED_SEARCH_MESSAGE } from '@/lib/presentation/personal-data-labels';

interface SearchFormTarget {
  /** The page the search opens. */
  list: string;
  role: ConsoleRole;
  /** Where a request id typed in the box goes (the records list's ./solicitud); none: it is searched as typed. */
  requestIds?: string;
}

function redirectTo(location: string): Response {
  // A relative Location: the browser resolves it against the address it asked, whatever the host.
  return new Response(null, { status: 303, headers: { location, 'cache-control': 'no-store' } });
}

export async function searchFormRedirect(request: Request, target: SearchFormTarget): Promise<Response> {
  const fields = await formFields(request);
  if (!fields) return new Response('El formulario no es válido.', { status: 400, headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' } });
  const typed = (fields.get('identificador') ?? '').trim();
  fields.delete('identificador');
  fields.delete(SEARCH_REFERENCE_PARAM);
  // Empty fields are not filters, and a new search starts at the first page.
  for (const key of [...fields.keys()]) if ((fields.get(key) ?? '').trim() === '' || key === 'despues' || key === 'antes') fields.delete(key);
  const user = await consoleUserWithAccess();
  // Signed out (or mid sign-in): the page itself sends to sign-in; the identifier is dropped.
  if (!user || !hasRole(user, target.role)) return redirectTo(withQuery(target.list, fields));
  const requestId = target.requestIds ? typedRequestId(typed) : undefined;
  if (requestId) {
    fields.set('solicitud', requestId);
    return redirectTo(withQuery(target.requestIds!, fields));
  }
  if (typed !== '') fields.set(SEARCH_REFERENCE_PARAM, await referenceSearch({ consoleUserId: user.id }, typed.slice(0, MAX_FORM_FIELD_LENGTH)));
  return redirectTo(withQuery(target.list, fields));
}

/** The parameter that carries a search's reference, and what a page says when that reference is no longer there. */
export { SEARCH_REFERENCE_PARAM } from '@/lib/core/personal-data/search-references';

/**
 * The NIT or CUI a page's address refers to (?busqueda=bq_…), kept for the user who searched it;
 * '' when there is no reference, or it expired or is someone else's.
 */
export async function searchedIdentifierOf(consoleUserId: number, reference: unknown): Promise<string> {
  return isSearchReference(reference) ? ((await searchedIdentifier({ consoleUserId }, reference)) ?? '') : '';
}

function withQuery(path: string, fields: URLSearchParams): string {
  const query = fields.toString();
  return query ? `${path}?${query}` : path;
}

/** The posted form (url-encoded or multipart) or, for GET, the query; null when it cannot be read. */
async function formFields(request: Request): Promise<URLSearchParams | null> {
  if (request.method === 'GET') return new URL(request.url).searchParams;
  return postedFormFields(request);
}
