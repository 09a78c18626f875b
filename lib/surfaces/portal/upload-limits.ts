// The sizes and words of a CSV upload and a box of pasted NITs ("Nuevo lote", "Nueva lista",
// «Agregar o quitar NIT»), for the actions that refuse them and the forms that refuse them first in
// the browser: this module reads only lib/flows/bulk/limits.ts, which has no server-only imports,
// so a client component may import it.
export { BULK_UPLOAD_MESSAGES, MAX_BULK_UPLOAD_BYTES, MAX_PASTED_IDENTIFIERS_CHARS } from '@/lib/flows/bulk/limits';
