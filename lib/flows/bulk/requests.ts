// The body of POST /api/lotes: a catalog by its path name and the list of identifiers.
import { z } from 'zod';
import type { CatalogName } from '@/lib/flows/lookups/catalog-request';
import { CATALOGS_BY_PATH_NAME, type CatalogPathName } from '@/lib/vocabulary/lookups';
import { MAX_IDENTIFIER_LENGTH } from '@/lib/contract/requests';
import { MAX_BULK_IDENTIFIERS } from './identifiers';

/** The catalogs by the names their paths use (/api/catalogos/cui-nit), as the API takes them. */
export const BULK_CATALOGS = CATALOGS_BY_PATH_NAME;
export type BulkCatalogPathName = CatalogPathName;

/** The largest body a list of 10,000 identifiers of the longest length takes, with room for JSON. */
export const MAX_BULK_BODY_BYTES = 1_048_576;

export const bulkJobRequestSchema = z
  .strictObject({
    catalogo: z.enum(Object.keys(BULK_CATALOGS) as [BulkCatalogPathName, ...BulkCatalogPathName[]]).describe('El catálogo que se consulta para cada identificador.'),
    identificadores: z
      .array(z.string().max(MAX_IDENTIFIER_LENGTH))
      .min(1)
      .max(MAX_BULK_IDENTIFIERS)
      .describe('NIT o CUI, tal como los tiene en su sistema (con o sin guion). Los inválidos y los repetidos se apartan sin costo.'),
    constancias: z
      .boolean()
      .optional()
      .describe(
        'Con true, cada fila encontrada lleva la constancia de consulta firmada de su respuesta (constancia_id y constancia_url en los resultados). Solo si su integración tiene las constancias habilitadas; si no, 403.',
      ),
  })
  .meta({ id: 'LoteRequest', description: 'Cuerpo de POST /lotes.' });

export type BulkRequestProblem = 'content_type' | 'too_large' | 'malformed' | 'catalog' | 'identifiers' | 'constancias' | 'fields';

/** Which part of the body was wrong: each has its own message (lib/surfaces/api/bulk-responses.ts). */
export function parseBulkJobRequest(
  value: unknown,
): { ok: true; catalog: CatalogName; identifiers: string[]; constancias: boolean } | { ok: false; problem: BulkRequestProblem } {
  const parsed = bulkJobRequestSchema.safeParse(value);
  if (parsed.success) return { ok: true, catalog: BULK_CATALOGS[parsed.data.catalogo], identifiers: parsed.data.identificadores, constancias: parsed.data.constancias ?? false };
  const first = parsed.error.issues[0]?.path[0];
  if (first === 'catalogo') return { ok: false, problem: 'catalog' };
  if (first === 'identificadores') return { ok: false, problem: 'identifiers' };
  if (first === 'constancias') return { ok: false, problem: 'constancias' };
  return { ok: false, problem: 'fields' };
}
