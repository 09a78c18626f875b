import { randomBytes } from 'node:crypto';
import { bulkFileName } from '@/lib/flows/bulk/file-name';
import { planItems } from '@/lib/flows/bulk/identifiers';
import { listConsoleJobs } from '@/lib/flows/bulk/console';
import { cancelJob, isPublicJobId, readJob, submitJob, type CancelOutcome, type JobStatus } from '@/lib/flows/bulk/jobs';
import { readJobOrigin, type JobOriginView } from '@/lib/flows/bulk/origin';
import { wakeBulkRunner } from '@/lib/flows/bulk/runner';
import { BULK_UPLOAD_MESSAGES, identifiersOfUpload } from '@/lib/flows/bulk/upload';
import { LOOKUP_FLAGS } from '@/lib/core/integrations/flags';
import { findIntegration } from '@/lib/flows/integration-management/service';
import type { CatalogName } from '@/lib/flows/lookups/catalog-request';
import { LOOKUP_LABELS } from '@/lib/vocabulary/labels';
import { CATALOGS_BY_PATH_NAME, type CatalogPathName } from '@/lib/vocabulary/lookups';
import type { PortalUserSession } from './session';

// "Lotes": the session's integration's bulk jobs through lib/flows/bulk, the code the
// API's /api/lotes runs, with the integration taken from the session and nowhere else. A job is
// addressed by its public id (random, no personal data); another integration's id reads exactly as
// an unknown one, because every read below is scoped by the session's integration in its statement.

export const PORTAL_BULK_PATH = '/portal/lotes';

export function portalBulkJobPath(publicId: string): string {
  return `${PORTAL_BULK_PATH}/${encodeURIComponent(publicId)}`;
}

/**
 * "Nuevo lote"'s catalogs: only those the integration has enabled (the flag each item checks, as the
 * API does), by the name the form sends; none enabled, nothing to offer.
 */
export async function portalBulkCatalogOptions(user: PortalUserSession): Promise<Array<{ value: CatalogPathName; label: string }>> {
  const integration = await findIntegration(user.integrationId);
  return (Object.entries(CATALOGS_BY_PATH_NAME) as Array<[CatalogPathName, CatalogName]>)
    .filter(([, catalog]) => integration?.[LOOKUP_FLAGS[catalog]])
    .map(([pathName, catalog]) => ({ value: pathName, label: LOOKUP_LABELS[catalog] }));
}

export interface PortalBulkJobsPage {
  jobs: JobStatus[];
  /** The cursor of the next (older) page. */
  older?: string;
}

/**
 * One page of the integration's jobs, newest first: the console's list (lib/flows/bulk/console.ts) scoped
 * to the session's integration in its statement, one statement for the page with each job's figures
 * as readJob (the API's own reading) computes them, so the list, the job's page and
 * GET /api/lotes/{id} never disagree.
 */
export async function portalBulkJobsPage(user: PortalUserSession, after: string | undefined): Promise<PortalBulkJobsPage> {
  const page = await listConsoleJobs({ integrationId: user.integrationId }, after);
  return { jobs: page.rows, older: page.older };
}

/** The session's integration's job, or null (unknown, malformed, or another integration's: alike). */
export function portalBulkJob(user: PortalUserSession, publicId: string): Promise<JobStatus | null> {
  return readJob(user.integrationId, publicId);
}

/** The session's integration's job's file name and who created it (lib/flows/bulk/origin.ts), or undefined. */
export function portalBulkJobOrigin(user: PortalUserSession, publicId: string): Promise<JobOriginView | undefined> {
  if (!isPublicJobId(publicId)) return Promise.resolve(undefined);
  return readJobOrigin(publicId, user.integrationId);
}

/** What a new job would do, shown before it is created. */
export interface BulkJobEstimate {
  catalog: CatalogName;
  /** Every identifier of the file (after the header). */
  total: number;
  /** Valid and unique: each a lookup, charged only when found. */
  toRun: number;
  invalid: number;
  duplicates: number;
  tariffCentavos: number;
  /** toRun × the tariff: what the job costs if every one is found. */
  maxCostCentavos: number;
  balanceCentavos: number;
}

export type EstimateOutcome =
  | { ok: true; estimate: BulkJobEstimate; identifiers: string[] }
  | { ok: false; message: string; field?: 'archivo' | 'catalogo' };

export const BULK_FORM_MESSAGES = {
  notEnabled: 'Ese catálogo no está habilitado para su integración: un lote no puede consultarlo. Pida a la administración del servicio que lo habilite.',
  keyReused: 'Esta confirmación ya creó un lote con otro archivo o catálogo. Vuelva a calcular el costo y confirme de nuevo.',
  constanciasNotEnabled: 'Su integración no tiene habilitadas las constancias de consulta: cree el lote sin ellas, o pida a la administración del servicio que las habilite.',
  ...BULK_UPLOAD_MESSAGES,
} as const;

/** Whether the session's integration has constancias de consulta on (the form offers them only then). */
export async function portalConstanciasEnabled(user: PortalUserSession): Promise<boolean> {
  return (await findIntegration(user.integrationId))?.constanciasEnabled === true;
}

/** Whether the integration may look this catalog up (its flag, as the API and every item check it). */
async function integrationFor(user: PortalUserSession, catalog: CatalogName) {
  const integration = await findIntegration(user.integrationId);
  if (!integration) throw new Error(`the session's integration ${user.integrationId} does not exist`);
  return { integration, enabled: integration[LOOKUP_FLAGS[catalog]] };
}

/**
 * Reads the uploaded file and plans it with planItems, as submitJob will: how many run, how many are
 * set aside and why, the most the job can cost at the integration's tariff, and the balance now.
 */
export async function estimatePortalBulkJob(user: PortalUserSession, catalog: CatalogName, file: Uint8Array): Promise<EstimateOutcome> {
  const { integration, enabled } = await integrationFor(user, catalog);
  if (!enabled) return { ok: false, message: BULK_FORM_MESSAGES.notEnabled, field: 'catalogo' };
  const read = identifiersOfUpload(file);
  if (!read.ok) return { ok: false, message: BULK_FORM_MESSAGES[read.problem], field: 'archivo' };
  const planned = planItems(catalog, read.identifiers);
  const toRun = planned.filter((item) => item.kind === 'lookup').length;
  const duplicates = planned.filter((item) => item.kind === 'set_aside' && item.reason === 'duplicado').length;
  return {
    ok: true,
    identifiers: read.identifiers,
    estimate: {
      catalog,
      total: planned.length,
      toRun,
      invalid: planned.length - toRun - duplicates,
      duplicates,
      tariffCentavos: integration.tariffCentavos,
      maxCostCentavos: toRun * integration.tariffCentavos,
      balanceCentavos: integration.balanceCentavos,
    },
  };
}

/** A fresh confirmation key, handed out with an estimate: the job's Idempotency-Key when it is confirmed. */
export function newConfirmationKey(): string {
  return randomBytes(16).toString('hex');
}

/**
 * The job's Idempotency-Key: the confirmation's key, in a namespace of its own so no key an
 * integrator's system sends to POST /api/lotes can meet it.
 */
function portalIdempotencyKey(confirmation: string): string {
  return `portal-${confirmation}`;
}

export type CreateOutcome = { ok: true; publicId: string; existed: boolean } | { ok: false; message: string; field?: 'archivo' | 'catalogo' };

/**
 * Creates the job through submitJob, as POST /api/lotes does. The same confirmation sent again (a
 * double click, a form sent twice, another instance) gives the job the first one created.
 */
export async function createPortalBulkJob(
  user: PortalUserSession,
  catalog: CatalogName,
  file: Uint8Array,
  confirmation: string,
  fileName?: unknown,
  /** A constancia de consulta per found row, as POST /api/lotes's `constancias`. */
  constancias = false,
): Promise<CreateOutcome> {
  const planned = await estimatePortalBulkJob(user, catalog, file);
  if (!planned.ok) return planned;
  if (constancias && !(await portalConstanciasEnabled(user))) return { ok: false, message: BULK_FORM_MESSAGES.constanciasNotEnabled };
  const submitted = await submitJob(user.integrationId, catalog, planned.identifiers, portalIdempotencyKey(confirmation), {
    fileName: bulkFileName(fileName),
    portalUserId: user.id,
    constancias,
  });
  if (submitted.kind === 'key_reused') return { ok: false, message: BULK_FORM_MESSAGES.keyReused };
  // As POST /api/lotes does: this instance's runner starts on it now, not after its idle back-off.
  if (submitted.kind === 'created') wakeBulkRunner();
  return { ok: true, publicId: submitted.publicId, existed: submitted.kind === 'existing' };
}

/** Cancels the session's integration's job through the API's cancelJob. */
export function cancelPortalBulkJob(user: PortalUserSession, publicId: string): Promise<CancelOutcome> {
  if (!isPublicJobId(publicId)) return Promise.resolve({ kind: 'unknown' });
  return cancelJob(user.integrationId, publicId);
}
