// Answers that carry a request id and leave neither a query record nor a trace (buffer.ts traces
// only what reached a lookup). Support reads this for an id the search finds nothing for: without
// it the page only offered "a copy error, not this service's, too old or too new", untrue of them.
// - server.mjs answers some requests before they reach the app: a request not all received within
//   REQUEST_RECEIVE_TIMEOUT_MS (408), a malformed one or one naming another host (400), headers
//   past Node's limit (431), and the public pages' 503 when too many wait for their turn;
// - proxy.ts gives an id to every answer of the API paths that are not lookups (/api/openapi.json,
//   /api/estado, a path that does not exist), their per-IP limits' 429s included, and knows no
//   lookup to trace them under; the lookups' own refusals, their 429s included, are traced.
// None of them reached a source or a balance.

/** The paragraph, with the receive bound this deployment uses. */
export function untracedAnswersText(receiveTimeoutMs: number): string {
  const seconds = Math.round(receiveTimeoutMs / 1000).toLocaleString('es-GT');
  return (
    'También pudo ser una respuesta que no deja rastro: las de las rutas de la API que no son consultas ' +
    '(como /api/openapi.json, /api/estado o una ruta que no existe), incluido el 429 de su límite por IP, y las que la instancia da ' +
    `antes de que la solicitud llegue a la aplicación (408 si no terminó de llegar en ${seconds} s, 400 si estaba mal formada o nombraba otro servidor, ` +
    '431 si sus encabezados eran demasiado grandes, 503 si había demasiadas solicitudes de páginas en espera). ' +
    'Esas no consultaron ninguna fuente y no se cobraron.'
  );
}
