'use server';

import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import type { ActionResult } from '@/lib/surfaces/portal/action';
import { BULK_UPLOAD_MESSAGES, MAX_BULK_UPLOAD_BYTES } from '@/lib/surfaces/portal/upload-limits';
import { CATALOGS_BY_PATH_NAME as BULK_CATALOGS, type CatalogPathName as BulkCatalogPathName } from '@/lib/vocabulary/lookups';
import { JOB_STATE_LABELS } from '@/lib/surfaces/portal/job-labels';
import { portalAction } from '@/lib/surfaces/portal/action';
import { cancelPortalBulkJob, createPortalBulkJob, estimatePortalBulkJob, newConfirmationKey, PORTAL_BULK_PATH, portalBulkJobPath, type BulkJobEstimate } from '@/lib/surfaces/portal/bulk';
import { BULK_JOB_RUNNERS } from '@/lib/surfaces/portal/page-access';

// "Lotes": an owner or a developer uploads a CSV, reads what it will run and cost, confirms, and may
// cancel a job; every one for the session's integration only, through lib/flows/bulk as POST /api/lotes.

const catalogField = z.enum(Object.keys(BULK_CATALOGS) as [BulkCatalogPathName, ...BulkCatalogPathName[]], { error: 'Elija el catálogo.' });
// A File from the browser; its size is refused before its bytes are read.
const fileField = z
  .custom<Blob>((value) => value instanceof Blob, 'Elija el archivo CSV.')
  .refine((blob) => blob.size <= MAX_BULK_UPLOAD_BYTES, BULK_UPLOAD_MESSAGES.tooLarge);

const estimateSchema = z.object({ catalogo: catalogField, archivo: fileField });
const createSchema = z.object({
  catalogo: catalogField,
  archivo: fileField,
  confirmacion: z.string().regex(/^[0-9a-f]{32}$/, 'Vuelva a calcular el costo.'),
  constancias: z.boolean().optional(),
});
const cancelSchema = z.object({ lote: z.string().max(100) });

/** "Calcular": what the file would run and cost, and the key its confirmation will carry. */
export const estimatePortalBulkJobAction = portalAction(
  { roles: BULK_JOB_RUNNERS, schema: estimateSchema },
  async ({ catalogo, archivo }, user): Promise<ActionResult<BulkJobEstimate & { confirmation: string }>> => {
    const planned = await estimatePortalBulkJob(user, BULK_CATALOGS[catalogo], new Uint8Array(await archivo.arrayBuffer()));
    if (!planned.ok) return { ok: false, message: planned.message, fieldErrors: planned.field ? { [planned.field]: planned.message } : undefined };
    return { ok: true, data: { ...planned.estimate, confirmation: newConfirmationKey() } };
  },
);

/** "Confirmar y crear el lote": the job, once per confirmation however often it is sent. */
export const createPortalBulkJobAction = portalAction(
  { roles: BULK_JOB_RUNNERS, schema: createSchema },
  async ({ catalogo, archivo, confirmacion, constancias }, user): Promise<ActionResult<{ path: string }>> => {
    // The browser's name for the file (a File's), made safe to show on the job's page.
    const fileName = archivo instanceof File ? archivo.name : undefined;
    const created = await createPortalBulkJob(user, BULK_CATALOGS[catalogo], new Uint8Array(await archivo.arrayBuffer()), confirmacion, fileName, constancias === true);
    if (!created.ok) return { ok: false, message: created.message, fieldErrors: created.field ? { [created.field]: created.message } : undefined };
    revalidatePath(PORTAL_BULK_PATH);
    return { ok: true, message: created.existed ? 'Ese lote ya estaba creado.' : 'Lote creado.', data: { path: portalBulkJobPath(created.publicId) } };
  },
);

/** "Cancelar lote": nothing pending runs or is charged after it (the API's cancelJob). */
export const cancelPortalBulkJobAction = portalAction({ roles: BULK_JOB_RUNNERS, schema: cancelSchema }, async ({ lote }, user): Promise<ActionResult> => {
  const cancelled = await cancelPortalBulkJob(user, lote);
  if (cancelled.kind === 'unknown') return { ok: false, message: 'No existe ese lote en su integración.' };
  revalidatePath(portalBulkJobPath(lote));
  if (cancelled.kind === 'already_finished') {
    return cancelled.state === 'cancelado'
      ? { ok: true, message: 'El lote ya estaba cancelado.', data: undefined }
      : { ok: false, message: `El lote ya terminó (${JOB_STATE_LABELS[cancelled.state].toLowerCase()}): no queda nada por cancelar.` };
  }
  return { ok: true, message: 'Lote cancelado: lo pendiente no se consultará ni se cobrará.', data: undefined };
});
