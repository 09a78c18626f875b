import { randomUUID } from 'node:crypto';
import { db } from '@/db/client';
import type { WatchListChangeKind } from '@/db/schema';
import { describeActor, writeAudit } from '@/lib/core/audit/audit';
import { listConsoleJobs } from '@/lib/flows/bulk/console';
import { wakeBulkRunner } from '@/lib/flows/bulk/runner';
import { writeAccessEntry } from '@/lib/core/personal-data/access-log';
import { maskNit } from '@/lib/core/sealing/masking';
import {
  createWatchList,
  deleteWatchList,
  isPublicWatchListId,
  listWatchListChanges,
  listWatchLists,
  pauseWatchList,
  readNamedWatchListChange,
  readWatchList,
  resumeWatchList,
  WATCH_CATALOGS,
  WATCH_SCHEDULES,
  type WatchCatalog,
  type WatchListView,
  type WatchSchedule,
} from '@/lib/flows/watch-lists';
import { WATCH_CHANGE_KINDS, WATCH_SCHEDULE_LABELS } from '@/lib/flows/watch-lists/labels';
import { MAX_WATCH_LIST_NAME_LENGTH, WATCH_LIST_NAME_PATTERN } from '@/lib/flows/watch-lists/schemas';
import { LOOKUP_FLAGS } from '@/lib/core/integrations/flags';
import { findIntegration } from '@/lib/flows/integration-management/service';
import { LOOKUP_LABELS } from '@/lib/vocabulary/labels';
import { editWatchList, type EditSetAside } from '@/lib/flows/watch-lists/edit';
import { MAX_BULK_IDENTIFIERS } from '@/lib/flows/bulk/limits';
import { BULK_FORM_MESSAGES, estimatePortalBulkJob, portalConstanciasEnabled, type BulkJobEstimate, type PortalBulkJobsPage } from './bulk';
import type { PortalUserSession } from './session';

// "Vigilancia": the session's integration's watch lists through
// lib/flows/watch-lists, the code /api/vigilancias runs, with the integration taken from the session and
// nowhere else (another integration's list id reads as an unknown one). Each change the portal makes
// is written to the audit log in the same transaction, so "Actividad del portal" shows it.

export const PORTAL_WATCH_LISTS_PATH = '/portal/vigilancia';

export function portalWatchListPath(publicId: string): string {
  return `${PORTAL_WATCH_LISTS_PATH}/${encodeURIComponent(publicId)}`;
}

export const WATCH_FORM_MESSAGES = {
  notFound: 'No existe esa vigilancia en su integración.',
  nothingToWatch: 'Ningún NIT del archivo es válido: no hay nada que vigilar.',
  changeNotFound: 'No existe ese cambio en esta vigilancia (pudo haberse eliminado la vigilancia).',
  revealed: 'NIT y nombre mostrados. El acceso quedó registrado con su motivo.',
} as const;

/** What the forms take (the catalogs watched, the schedules, the name's rules), as /api/vigilancias takes them. */
export { MAX_WATCH_LIST_NAME_LENGTH, WATCH_CATALOGS, WATCH_LIST_NAME_PATTERN, WATCH_SCHEDULES };

/**
 * "Nueva lista"'s choices: only the catalogs watch lists watch that the integration has enabled (the
 * flag each run's items check, as POST /api/vigilancias does), and every schedule.
 */
export async function portalWatchListFormOptions(user: PortalUserSession): Promise<{ catalogs: Array<{ value: WatchCatalog; label: string }>; schedules: Array<{ value: WatchSchedule; label: string }> }> {
  const integration = await findIntegration(user.integrationId);
  return {
    catalogs: WATCH_CATALOGS.filter((catalog) => integration?.[LOOKUP_FLAGS[catalog]]).map((catalog) => ({ value: catalog, label: LOOKUP_LABELS[catalog] })),
    schedules: WATCH_SCHEDULES.map((schedule) => ({ value: schedule, label: WATCH_SCHEDULE_LABELS[schedule] })),
  };
}

export function portalWatchListsPage(user: PortalUserSession, after: string | undefined) {
  return listWatchLists(user.integrationId, after);
}

export function portalWatchList(user: PortalUserSession, publicId: string): Promise<WatchListView | null> {
  return readWatchList(user.integrationId, publicId);
}

/** The list's runs, newest first: each a job of the integration, as "Lotes" lists them. */
export async function portalWatchListRuns(user: PortalUserSession, publicId: string, after: string | undefined): Promise<PortalBulkJobsPage> {
  if (!isPublicWatchListId(publicId)) return { jobs: [] };
  const page = await listConsoleJobs({ integrationId: user.integrationId, watchListPublicId: publicId }, after);
  return { jobs: page.rows, older: page.older };
}

/** A change as the portal shows it: the NIT masked until a reveal with a reason (revealPortalWatchListChange). */
export interface PortalWatchListChange {
  /** What the reveal sends to name this change: its run, the entry's position and its kind, never the NIT. */
  key: string;
  maskedNit: string;
  kind: WatchListChangeKind;
  before: string | boolean | null;
  after: string | boolean | null;
  run: number;
  jobId: string;
  detectedAt: Date;
}

/**
 * A page of the list's changes, newest run first, with every NIT masked before it leaves this
 * module: the full NIT reaches the portal's HTML only through a logged reveal or download.
 */
export async function portalWatchListChanges(
  user: PortalUserSession,
  publicId: string,
  cursor: string | undefined,
): Promise<{ changes: PortalWatchListChange[]; next?: string } | null> {
  let page = await listWatchListChanges(user.integrationId, publicId, cursor);
  // A cursor edited by hand starts again at the newest change rather than failing the page.
  if (page === 'invalid_cursor') page = await listWatchListChanges(user.integrationId, publicId);
  if (page === null || page === 'invalid_cursor') return null;
  return {
    changes: page.changes.map(({ nit, position, ...change }) => ({ ...change, key: changeKey(change.run, position, change.kind), maskedNit: maskNit(nit) })),
    next: page.next,
  };
}

function changeKey(run: number, position: number, kind: WatchListChangeKind): string {
  return `${run}.${position}.${kind}`;
}

function parseChangeKey(text: string): { run: number; position: number; kind: WatchListChangeKind } | null {
  const match = /^([0-9]{1,9})\.([0-9]{1,9})\.([a-z_]{1,20})$/.exec(text);
  const kind = WATCH_CHANGE_KINDS.find((candidate) => candidate === match?.[3]);
  return match && kind ? { run: Number(match[1]), position: Number(match[2]), kind } : null;
}

/**
 * "Mostrar": one change's NIT and the taxpayer's name for a person of the list's integration, with
 * a reason, as Consultas reveals a record's identifiers: the personal-data access log's entry (the
 * portal user as actor, the list, run and kind, the reason) is written before anything is returned;
 * undefined when the list or the change is not the integration's.
 */
export async function revealPortalWatchListChange(user: PortalUserSession, publicId: string, keyText: string, reason: string): Promise<{ nit: string; name: string | null } | undefined> {
  const key = parseChangeKey(keyText);
  if (!key) return undefined;
  const change = await readNamedWatchListChange(user.integrationId, publicId, key);
  if (!change) return undefined;
  await writeAccessEntry({ actor: describeActor(user.actor), kind: 'reveal', reason, details: { vigilancia: publicId, ejecucion: change.run, cambio: change.kind } });
  return { nit: change.nit, name: change.name };
}

export type WatchListEstimate = Omit<BulkJobEstimate, 'catalog' | 'maxCostCentavos'> & {
  catalog: WatchCatalog;
  /** toRun × the tariff: the most one run costs, if every NIT is found. */
  maxRunCostCentavos: number;
};

/**
 * What a new list would watch and what each run can cost, with "Nuevo lote"'s reading and planning
 * of the file (the same upload limits, the same catalog flag, the same set-aside rules createWatchList
 * applies), and the key its confirmation carries: the form's sending key, so a double click saves one list.
 */
export async function estimatePortalWatchList(
  user: PortalUserSession,
  catalog: WatchCatalog,
  file: Uint8Array,
): Promise<{ ok: true; estimate: WatchListEstimate; confirmation: string } | { ok: false; message: string; field?: 'archivo' | 'catalogo' }> {
  const planned = await estimatePortalBulkJob(user, catalog, file);
  if (!planned.ok) return planned;
  const { maxCostCentavos, ...estimate } = planned.estimate;
  return { ok: true, estimate: { ...estimate, catalog, maxRunCostCentavos: maxCostCentavos }, confirmation: randomUUID() };
}

export type PortalWatchListCreated = { ok: true; publicId: string } | { ok: false; message: string; field?: 'archivo' | 'catalogo' };

/** Saves the list through createWatchList, as POST /api/vigilancias does, with its audit row. */
export async function createPortalWatchList(
  user: PortalUserSession,
  input: { name: string; catalog: WatchCatalog; schedule: WatchSchedule; file: Uint8Array; constancias?: boolean },
): Promise<PortalWatchListCreated> {
  const planned = await estimatePortalBulkJob(user, input.catalog, input.file);
  if (!planned.ok) return planned;
  if (input.constancias && !(await portalConstanciasEnabled(user))) return { ok: false, message: BULK_FORM_MESSAGES.constanciasNotEnabled };
  const outcome = await (await db()).transaction(async (tx) => {
    const created = await createWatchList(
      user.integrationId,
      { name: input.name, catalog: input.catalog, schedule: input.schedule, nits: planned.identifiers, constancias: input.constancias },
      tx,
    );
    if (created.kind === 'nothing_to_watch') return created;
    // The portal's once-only comes from the form's sending key (its confirmation), not an
    // Idempotency-Key: without one, createWatchList only ever creates.
    if (created.kind !== 'created') throw new Error(`a portal watch list was saved without an Idempotency-Key and came back ${created.kind}`);
    await writeAudit(tx, user.actor, {
      action: 'watch_list.create',
      targetType: 'integration',
      targetId: user.integrationId,
      before: null,
      // Never its NITs, nor its name (free text an integrator may fill with anything).
      after: { vigilancia: created.list.publicId, catalogo: created.list.catalog, frecuencia: created.list.schedule, nits: created.list.entries, constancias: created.list.constancias },
    });
    return created;
  });
  if (outcome.kind === 'nothing_to_watch') return { ok: false, message: WATCH_FORM_MESSAGES.nothingToWatch, field: 'archivo' };
  // Its first run (the baseline) is due now: this instance's runner starts it at its next look, as the API's.
  wakeBulkRunner();
  return { ok: true, publicId: outcome.list.publicId };
}

/** Pauses or resumes the list, with its audit row; null for a list the integration does not have. */
export async function setPortalWatchListState(user: PortalUserSession, publicId: string, state: 'activa' | 'en_pausa'): Promise<WatchListView | null> {
  if (!isPublicWatchListId(publicId)) return null;
  return (await db()).transaction(async (tx) => {
    const before = await readWatchList(user.integrationId, publicId, tx);
    if (!before) return null;
    const after = state === 'en_pausa' ? await pauseWatchList(user.integrationId, publicId, tx) : await resumeWatchList(user.integrationId, publicId, tx);
    if (!after) return null;
    if (before.state !== after.state) {
      await writeAudit(tx, user.actor, {
        action: state === 'en_pausa' ? 'watch_list.pause' : 'watch_list.resume',
        targetType: 'integration',
        targetId: user.integrationId,
        before: { vigilancia: publicId, estado: before.state },
        after: { vigilancia: publicId, estado: after.state },
      });
    }
    return after;
  });
}

/** Deletes the list (a run still going is cancelled, lib/flows/watch-lists), with its audit row. */
export async function deletePortalWatchList(user: PortalUserSession, publicId: string): Promise<boolean> {
  if (!isPublicWatchListId(publicId)) return false;
  return (await db()).transaction(async (tx) => {
    const before = await readWatchList(user.integrationId, publicId, tx);
    if (!before) return false;
    if (!(await deleteWatchList(user.integrationId, publicId, tx))) return false;
    await writeAudit(tx, user.actor, {
      action: 'watch_list.delete',
      targetType: 'integration',
      targetId: user.integrationId,
      before: { vigilancia: publicId, catalogo: before.catalog, frecuencia: before.schedule, nits: before.entries, estado: before.state },
      after: null,
    });
    return true;
  });
}

/** What «Agregar o quitar NIT» reads from each box: NITs one per line, or separated by commas, semicolons or spaces. */
export function nitsFromText(text: string): string[] {
  return text.split(/[\s,;]+/).filter((nit) => nit !== '');
}

export type PortalWatchListNitsEdited = { ok: true; message: string } | { ok: false; message: string; field?: 'agregar' | 'quitar' };

const SET_ASIDE_WORDS: Record<EditSetAside['reason'], string> = {
  nit_invalido: 'no es un NIT válido',
  cui_invalido: 'no es un CUI válido',
  duplicado: 'está repetido o ya se vigila',
  no_vigilado: 'esta vigilancia no lo tiene',
};

/**
 * Adds and removes NITs of the list, as PATCH /api/vigilancias/{id} does (lib/flows/watch-lists/edit.ts:
 * one transaction, an audit row per kind of change), and says in words what was done and each NIT
 * not taken, by its place in its box (never the NIT itself, which the page does not echo).
 */
export async function editPortalWatchListNits(user: PortalUserSession, publicId: string, addText: string, removeText: string): Promise<PortalWatchListNitsEdited> {
  const add = nitsFromText(addText);
  const remove = nitsFromText(removeText);
  if (add.length === 0 && remove.length === 0) return { ok: false, message: 'Escriba al menos un NIT para agregar o para quitar.', field: 'agregar' };
  if (add.length > MAX_BULK_IDENTIFIERS) return { ok: false, message: `Puede agregar hasta ${MAX_BULK_IDENTIFIERS.toLocaleString('es-GT')} NIT a la vez.`, field: 'agregar' };
  if (remove.length > MAX_BULK_IDENTIFIERS) return { ok: false, message: `Puede quitar hasta ${MAX_BULK_IDENTIFIERS.toLocaleString('es-GT')} NIT a la vez.`, field: 'quitar' };
  const outcome = await editWatchList(user.actor, user.integrationId, publicId, { add, remove });
  if (outcome.kind === 'unknown') return { ok: false, message: WATCH_FORM_MESSAGES.notFound };
  if (outcome.kind === 'nothing_left') return { ok: false, message: 'Quitarlos dejaría la vigilancia sin ningún NIT. Para dejar de vigilar, elimine la vigilancia.', field: 'quitar' };
  if (outcome.kind === 'too_many') {
    return { ok: false, message: `Con ellos la vigilancia pasaría de ${outcome.limit.toLocaleString('es-GT')} NIT, lo más que consulta una ejecución.`, field: 'agregar' };
  }
  const { added, removed } = outcome;
  const done = [
    added > 0 ? `se ${added === 1 ? 'agregó 1 NIT' : `agregaron ${added.toLocaleString('es-GT')} NIT`}` : '',
    removed > 0 ? `se ${removed === 1 ? 'quitó 1 NIT' : `quitaron ${removed.toLocaleString('es-GT')} NIT`}` : '',
  ].filter(Boolean);
  const first = done.length > 0 ? `${capitalized(done.join(' y '))}.` : 'No cambió ningún NIT.';
  const addedNote = added > 0 ? ' La próxima ejecución guarda el estado de los agregados sin reportar cambios; desde la siguiente se comparan.' : '';
  const setAside = outcome.setAside.map((entry) => `el ${entry.position.toLocaleString('es-GT')}.º de «${entry.field === 'add' ? 'Agregar' : 'Quitar'}» ${SET_ASIDE_WORDS[entry.reason]}`);
  const shown = setAside.slice(0, 10);
  const apart =
    setAside.length === 0 ? '' : ` No se ${setAside.length === 1 ? 'tomó' : 'tomaron'} ${setAside.length.toLocaleString('es-GT')}: ${shown.join('; ')}${setAside.length > shown.length ? `, y ${(setAside.length - shown.length).toLocaleString('es-GT')} más` : ''}.`;
  return { ok: true, message: `${first}${addedNote}${apart}` };
}

/**
 * Whether the list's next runs ask for a constancia per found NIT, as PATCH /api/vigilancias/{id}
 * with "constancias" (audited as watch_list.set_constancias); turning them on is refused, in words,
 * where the integration has receipts off. Turning them off is always possible.
 */
export async function setPortalWatchListConstancias(user: PortalUserSession, publicId: string, constancias: boolean): Promise<{ ok: true; list: WatchListView } | { ok: false; message: string }> {
  if (constancias && !(await portalConstanciasEnabled(user))) return { ok: false, message: BULK_FORM_MESSAGES.constanciasNotEnabled };
  if (!isPublicWatchListId(publicId)) return { ok: false, message: WATCH_FORM_MESSAGES.notFound };
  const outcome = await editWatchList(user.actor, user.integrationId, publicId, { constancias });
  if (outcome.kind !== 'edited') return { ok: false, message: WATCH_FORM_MESSAGES.notFound };
  return { ok: true, list: outcome.list };
}

function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
