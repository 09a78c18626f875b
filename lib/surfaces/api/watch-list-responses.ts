// The answers of /api/vigilancias beside /api/lotes: the catalogs' error shape
// (`{message}`), in words spelled with their accents.
import { MAX_BULK_IDENTIFIERS } from '@/lib/flows/bulk/identifiers';
import { MAX_WATCH_LIST_NAME_LENGTH, type WatchListEditProblem, type WatchListRequestProblem } from '@/lib/flows/watch-lists/schemas';
import { bulkError } from './bulk-responses';

export const WATCH_LIST_MESSAGES = {
  nombre: `El campo nombre debe ser un texto de 1 a ${MAX_WATCH_LIST_NAME_LENGTH} caracteres, sin caracteres de control.`,
  catalogo: 'El campo catalogo debe ser omisos o rtu.',
  frecuencia: 'El campo frecuencia debe ser mensual o semanal.',
  nits: `Envíe entre 1 y ${MAX_BULK_IDENTIFIERS.toLocaleString('en-US')} NIT como texto en el campo nits.`,
  fields: 'El cuerpo debe ser un objeto JSON con los campos nombre, catalogo, frecuencia y nits (y, si quiere, constancias), y ningún otro.',
  constancias: 'El campo constancias, si se envía, debe ser true o false.',
  idempotencyKeyMissing: 'Envíe el encabezado Idempotency-Key para crear una vigilancia.',
  nothingToWatch: 'Ninguno de los NIT enviados es válido: no se guardó la vigilancia.',
  notFound: 'No encontramos una vigilancia con ese id.',
  invalidCursor: 'El cursor no es válido: use el campo siguiente de la página anterior.',
  estado: 'El campo estado debe ser activa o en_pausa.',
  agregar_nits: `El campo agregar_nits debe ser una lista de hasta ${MAX_BULK_IDENTIFIERS.toLocaleString('en-US')} NIT como texto.`,
  quitar_nits: `El campo quitar_nits debe ser una lista de hasta ${MAX_BULK_IDENTIFIERS.toLocaleString('en-US')} NIT como texto.`,
  editFields: 'El cuerpo debe ser un objeto JSON con al menos uno de los campos nombre, frecuencia, estado, agregar_nits, quitar_nits y constancias, y ningún otro.',
  nothingLeft: 'La vigilancia se quedaría sin NIT: para dejar de vigilar, elimínela.',
  tooMany: `La vigilancia tendría más de ${MAX_BULK_IDENTIFIERS.toLocaleString('en-US')} NIT.`,
} as const satisfies Record<WatchListRequestProblem | WatchListEditProblem | string, string>;

export const watchListErrors = {
  notFound: (requestId: string) => bulkError(404, WATCH_LIST_MESSAGES.notFound, requestId),
};
