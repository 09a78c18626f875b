'use server';

import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import type { ActionResult } from '@/lib/surfaces/portal/action';
import { portalAction } from '@/lib/surfaces/portal/action';
import { BULK_UPLOAD_MESSAGES, MAX_BULK_UPLOAD_BYTES, MAX_PASTED_IDENTIFIERS_CHARS } from '@/lib/surfaces/portal/upload-limits';
import { accessReasonSchema } from '@/lib/presentation/access-reason';
import {
  createPortalWatchList,
  deletePortalWatchList,
  editPortalWatchListNits,
  estimatePortalWatchList,
  MAX_WATCH_LIST_NAME_LENGTH,
  PORTAL_WATCH_LISTS_PATH,
  portalWatchListPath,
  revealPortalWatchListChange,
  setPortalWatchListConstancias,
  setPortalWatchListState,
  WATCH_CATALOGS,
  WATCH_FORM_MESSAGES,
  WATCH_LIST_NAME_PATTERN,
  WATCH_SCHEDULES,
  type WatchListEstimate,
} from '@/lib/surfaces/portal/watch-lists';
import { BULK_JOB_RUNNERS } from '@/lib/surfaces/portal/page-access';

// "Vigilancia": an owner or a developer (the Lotes' runners: each run is a job, charged as one)
// uploads a CSV, reads how many NITs it will watch and what a run can cost, confirms, and pauses,
// resumes, adds or removes NITs of, or deletes a list, and reveals a change's NIT and name with a reason; every one for the
// session's integration only, through lib/flows/watch-lists as /api/vigilancias, each change audited and
// each reveal written to the personal-data access log.

const catalogField = z.enum(WATCH_CATALOGS, { error: 'Elija el catálogo.' });
const scheduleField = z.enum(WATCH_SCHEDULES, { error: 'Elija la frecuencia.' });
const nameField = z
  .string()
  .trim()
  .min(1, 'Escriba un nombre para reconocerla.')
  .max(MAX_WATCH_LIST_NAME_LENGTH, `El nombre puede tener hasta ${MAX_WATCH_LIST_NAME_LENGTH} caracteres.`)
  .regex(WATCH_LIST_NAME_PATTERN, 'El nombre no puede llevar saltos de línea ni otros caracteres de control.');
// A File from the browser; its size is refused before its bytes are read (as Nuevo lote's).
const fileField = z
  .custom<Blob>((value) => value instanceof Blob, 'Elija el archivo CSV.')
  .refine((blob) => blob.size <= MAX_BULK_UPLOAD_BYTES, BULK_UPLOAD_MESSAGES.tooLarge);
const listField = z.object({ vigilancia: z.string().max(100) });
const nitsSchema = z.object({
  vigilancia: z.string().max(100),
  agregar: z.string().max(MAX_PASTED_IDENTIFIERS_CHARS, 'Son demasiados NIT para una vez: divídalos.').default(''),
  quitar: z.string().max(MAX_PASTED_IDENTIFIERS_CHARS, 'Son demasiados NIT para una vez: divídalos.').default(''),
});
const revealSchema = z.object({ vigilancia: z.string().max(100), cambio: z.string().max(60), motivo: accessReasonSchema });

const estimateSchema = z.object({ catalogo: catalogField, archivo: fileField });
const createSchema = z.object({ nombre: nameField, catalogo: catalogField, frecuencia: scheduleField, archivo: fileField, constancias: z.boolean().optional() });

/** "Calcular costo": what the file would watch and what a run can cost; nothing is saved. */
export const estimatePortalWatchListAction = portalAction(
  { roles: BULK_JOB_RUNNERS, schema: estimateSchema },
  async ({ catalogo, archivo }, user): Promise<ActionResult<WatchListEstimate & { confirmation: string }>> => {
    const planned = await estimatePortalWatchList(user, catalogo, new Uint8Array(await archivo.arrayBuffer()));
    if (!planned.ok) return { ok: false, message: planned.message, fieldErrors: planned.field ? { [planned.field]: planned.message } : undefined };
    return { ok: true, data: { ...planned.estimate, confirmation: planned.confirmation } };
  },
);

/**
 * "Confirmar y crear la vigilancia": the form sends the estimate's confirmation as its sending key
 * (envio), so a double click or a resend saves one list.
 */
export const createPortalWatchListAction = portalAction(
  { roles: BULK_JOB_RUNNERS, schema: createSchema },
  async ({ nombre, catalogo, frecuencia, archivo, constancias }, user): Promise<ActionResult<{ path: string }>> => {
    const created = await createPortalWatchList(user, {
      name: nombre,
      catalog: catalogo,
      schedule: frecuencia,
      file: new Uint8Array(await archivo.arrayBuffer()),
      constancias: constancias === true,
    });
    if (!created.ok) return { ok: false, message: created.message, fieldErrors: created.field ? { [created.field]: created.message } : undefined };
    revalidatePath(PORTAL_WATCH_LISTS_PATH);
    return { ok: true, message: 'Vigilancia creada: su primera ejecución empieza ahora.', data: { path: portalWatchListPath(created.publicId) } };
  },
);

/** "Pausar": no run starts while paused (one already going finishes). */
export const pausePortalWatchListAction = portalAction({ roles: BULK_JOB_RUNNERS, schema: listField }, async ({ vigilancia }, user): Promise<ActionResult> => {
  const list = await setPortalWatchListState(user, vigilancia, 'en_pausa');
  if (!list) return { ok: false, message: WATCH_FORM_MESSAGES.notFound };
  revalidatePath(portalWatchListPath(vigilancia));
  return { ok: true, message: 'Vigilancia en pausa: no se ejecutará hasta que la reanude.', data: undefined };
});

/** "Reanudar": its schedule again (a run missed while paused starts at once). */
export const resumePortalWatchListAction = portalAction({ roles: BULK_JOB_RUNNERS, schema: listField }, async ({ vigilancia }, user): Promise<ActionResult> => {
  const list = await setPortalWatchListState(user, vigilancia, 'activa');
  if (!list) return { ok: false, message: WATCH_FORM_MESSAGES.notFound };
  revalidatePath(portalWatchListPath(vigilancia));
  return { ok: true, message: 'Vigilancia reanudada.', data: undefined };
});

/** "Pedir constancias" or "Dejar de pedir constancias": from the list's next run on. */
export const setPortalWatchListConstanciasAction = portalAction(
  { roles: BULK_JOB_RUNNERS, schema: z.object({ vigilancia: z.string().max(100), constancias: z.enum(['si', 'no']) }) },
  async ({ vigilancia, constancias }, user): Promise<ActionResult> => {
    const changed = await setPortalWatchListConstancias(user, vigilancia, constancias === 'si');
    if (!changed.ok) return { ok: false, message: changed.message };
    revalidatePath(portalWatchListPath(vigilancia));
    return {
      ok: true,
      message: changed.list.constancias
        ? 'Desde su próxima ejecución, cada NIT encontrado trae su constancia de consulta.'
        : 'Desde su próxima ejecución, la vigilancia ya no pide constancias.',
      data: undefined,
    };
  },
);

/** "Agregar o quitar NIT": the list's NITs changed in place, its history kept (as PATCH /api/vigilancias/{id}). */
export const editPortalWatchListNitsAction = portalAction({ roles: BULK_JOB_RUNNERS, schema: nitsSchema }, async ({ vigilancia, agregar, quitar }, user): Promise<ActionResult> => {
  const edited = await editPortalWatchListNits(user, vigilancia, agregar, quitar);
  if (!edited.ok) return edited.field ? { ok: false, message: edited.message, fieldErrors: { [edited.field]: edited.message } } : { ok: false, message: edited.message };
  revalidatePath(portalWatchListPath(vigilancia));
  return { ok: true, message: edited.message, data: undefined };
});

/** "Eliminar vigilancia": its NITs and changes go; a run going is cancelled, its finished runs stay in Lotes. */
export const deletePortalWatchListAction = portalAction({ roles: BULK_JOB_RUNNERS, schema: listField }, async ({ vigilancia }, user): Promise<ActionResult<{ path: string }>> => {
  if (!(await deletePortalWatchList(user, vigilancia))) return { ok: false, message: WATCH_FORM_MESSAGES.notFound };
  revalidatePath(PORTAL_WATCH_LISTS_PATH);
  return { ok: true, message: 'Vigilancia eliminada.', data: { path: PORTAL_WATCH_LISTS_PATH } };
});

/**
 * "Mostrar": one change's NIT and the taxpayer's name in full, with a reason, for those who download
 * a job's results (the same people and the same log as Consultas' reveal): written to the
 * personal-data access log (the portal user as actor) before they leave the server.
 */
export const revealPortalWatchListChangeAction = portalAction(
  { roles: BULK_JOB_RUNNERS, schema: revealSchema },
  async ({ vigilancia, cambio, motivo }, user): Promise<ActionResult<{ nit: string; nombre: string | null }>> => {
    const revealed = await revealPortalWatchListChange(user, vigilancia, cambio, motivo);
    if (!revealed) return { ok: false, message: WATCH_FORM_MESSAGES.changeNotFound };
    return { ok: true, message: WATCH_FORM_MESSAGES.revealed, data: { nit: revealed.nit, nombre: revealed.name } };
  },
);
