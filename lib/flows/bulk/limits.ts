// The sizes a bulk job's list may have, with no server-only imports: the portal's upload form reads
// them in the browser to refuse a file before sending it.

export const MAX_BULK_IDENTIFIERS = 10_000;

/** The most a box of pasted NITs takes (a watch list's «Agregar o quitar NIT»): a whole run's, each as long as an identifier may be; two such boxes stay under the pages' 1 MiB form limit. */
export const MAX_PASTED_IDENTIFIERS_CHARS = MAX_BULK_IDENTIFIERS * 20;

/**
 * The largest CSV file the portal takes. Pages' forms are refused by proxy.ts over 1 MiB
 * (FORM_BODY_LIMIT_BYTES), multipart headers and the form's other fields included: 1,000,000 bytes
 * leaves them room, and 10,000 identifiers with a few columns beside them fit several times over.
 */
export const MAX_BULK_UPLOAD_BYTES = 1_000_000;

export const BULK_UPLOAD_MESSAGES = {
  tooLarge: `El archivo pesa más de ${(MAX_BULK_UPLOAD_BYTES / 1_000_000).toLocaleString('es-GT')} MB. Divídalo en varios lotes.`,
  empty: 'El archivo no tiene ningún identificador. Ponga un NIT o CUI por línea (o en la primera columna).',
  tooMany: `El archivo tiene más de ${MAX_BULK_IDENTIFIERS.toLocaleString('es-GT')} identificadores. Divídalo en varios lotes.`,
  notText: 'El archivo no es un CSV de texto (UTF-8). Expórtelo como CSV desde su hoja de cálculo o su sistema.',
} as const;
