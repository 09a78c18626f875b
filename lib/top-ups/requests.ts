import { and, asc, count, desc, eq, sql, type SQL } from 'drizzle-orm';
import { db } from '@/db/client';
import { integrations, portalUsers, topUpRequests, topUpSlips, type TopUpRequest } from '@/db/schema';
import { describeActor, writeAudit, type Actor, type IntegratorActor } from '@/lib/audit/audit';
import { afterBalanceMoved, topUpWithin } from '@/lib/billing/ledger';
import { guatemalanToday, isCalendarDay } from '@/lib/format/guatemala-time';
import { positiveCentavosSchema } from '@/lib/integrations/schemas';
import type { DecidedTopUp } from '@/lib/integrator-notifications/kinds';
import { integratorNotifier } from '@/lib/integrator-notifications/notifier';
import { TOP_UP_REPORTERS } from '@/lib/portal/roles';
import type { PortalRole } from '@/db/schema';
import { beyondCursor, cursorInstant, decodeCursor, encodeCursor, type KeysetCursor } from '@/lib/paging/keyset';
import { fail, ok, type Result } from '@/lib/result';
import { bankName, isBankCode } from './banks';
import { TOP_UP_MESSAGES } from './messages';
import { readSlip } from './slips';

export { TOP_UP_MESSAGES };

// Top-up requests (issue 34, point 3): an integrator reports a deposit, an administrator approves
// or rejects it. Approval credits through the console's own top-up (lib/billing/ledger.ts) in the
// same transaction as the request's state change, so the request and its money commit together,
// and the locked request row makes every later approval find it decided: a double click, or two
// instances approving at once, credit once. A bank reference is taken by at most one request that
// is pending or approved (a unique index), so the same deposit is never credited twice.


export type TopUpError = 'invalid' | 'forbidden' | 'duplicate' | 'not_found' | 'decided';

/** "0123 456-78 " as "0123456-78": what makes two reports of one deposit the same reference. */
export function normalizeReference(text: string): string {
  return text.trim().toUpperCase().replace(/\s+/g, '');
}

const REFERENCE_PATTERN = /^[A-Z0-9][A-Z0-9./-]{0,39}$/;

export interface TopUpReport {
  bank: string;
  reference: string;
  /** YYYY-MM-DD, Guatemala's calendar. */
  depositDate: string;
  amountCentavos: number;
  slip?: Uint8Array;
}

export interface Reporter {
  id: number;
  role: PortalRole;
  integrationId: number;
  actor: IntegratorActor;
}

type FieldErrors = Partial<Record<'banco' | 'referencia' | 'fecha' | 'monto' | 'boleta', string>>;

/** Records a reported deposit as pending; it moves no money. */
export async function reportTopUp(reporter: Reporter, report: TopUpReport, now = new Date()): Promise<Result<TopUpRequest, TopUpError> & { fieldErrors?: FieldErrors }> {
  if (!TOP_UP_REPORTERS.includes(reporter.role)) return fail('forbidden', TOP_UP_MESSAGES.forbidden);
  const fieldErrors: FieldErrors = {};
  if (!isBankCode(report.bank)) fieldErrors.banco = TOP_UP_MESSAGES.bank;
  const reference = normalizeReference(report.reference);
  if (!REFERENCE_PATTERN.test(reference)) fieldErrors.referencia = TOP_UP_MESSAGES.reference;
  if (!isCalendarDay(report.depositDate) || report.depositDate > guatemalanToday(now)) fieldErrors.fecha = TOP_UP_MESSAGES.date;
  const amount = positiveCentavosSchema.safeParse(report.amountCentavos);
  if (!amount.success) fieldErrors.monto = amount.error.issues[0]!.message;
  const slip = report.slip && report.slip.length > 0 ? readSlip(report.slip) : undefined;
  if (slip && 'message' in slip) fieldErrors.boleta = slip.message;
  const first = Object.values(fieldErrors)[0];
  if (first) return { ...fail('invalid', first), fieldErrors };
  try {
    const request = await (await db()).transaction(async (tx) => {
      const [row] = await tx
        .insert(topUpRequests)
        .values({
          integrationId: reporter.integrationId,
          reportedBy: reporter.id,
          bank: report.bank,
          reference: report.reference.trim(),
          normalizedReference: reference,
          depositDate: report.depositDate,
          amountCentavos: amount.data!,
        })
        .returning();
      if (slip && !('message' in slip)) {
        await tx.insert(topUpSlips).values({ requestId: row!.id, contentType: slip.contentType, sizeBytes: slip.bytes.length, content: slip.bytes });
      }
      await writeAudit(tx, reporter.actor, {
        action: 'top_up_request.report',
        targetType: 'integration',
        targetId: reporter.integrationId,
        before: null,
        after: { requestId: row!.id, bank: row!.bank, reference: row!.reference, depositDate: row!.depositDate, amountCentavos: row!.amountCentavos, slip: slip ? true : false },
      });
      return row!;
    });
    return ok(request);
  } catch (error) {
    // The unique index answers a report racing another of the same deposit.
    if (isUniqueViolation(error)) return { ...fail('duplicate', TOP_UP_MESSAGES.duplicate), fieldErrors: { referencia: TOP_UP_MESSAGES.duplicate } };
    throw error;
  }
}

/** The ledger note of an approved request: the bank and its reference, as the statement shows it. */
export function topUpRequestNote(request: Pick<TopUpRequest, 'id' | 'bank' | 'reference' | 'depositDate'>): string {
  return `Depósito ${bankName(request.bank)}, referencia ${request.reference}, del ${request.depositDate} (solicitud ${request.id})`;
}

/** Approves a pending request: its top-up enters the ledger with the state change, once. */
export async function approveTopUpRequest(actor: Actor, requestId: number): Promise<Result<{ request: TopUpRequest; balanceCentavos: number }, TopUpError>> {
  const result = await (await db()).transaction(async (tx) => {
    // The row lock orders concurrent approvals: the second reads the first's committed decision.
    const [request] = await tx.select().from(topUpRequests).where(eq(topUpRequests.id, requestId)).for('update');
    if (!request) return fail('not_found', TOP_UP_MESSAGES.notFound);
    if (request.state !== 'pending') return fail('decided', TOP_UP_MESSAGES.decided);
    const moved = await topUpWithin(tx, actor, request.integrationId, request.amountCentavos, topUpRequestNote(request));
    if (!moved.ok) throw new Error(`top-up request ${requestId} could not be credited: ${moved.error.code}`);
    const [decided] = await tx
      .update(topUpRequests)
      .set({ state: 'approved', decidedBy: describeActor(actor), decidedAt: sql`now()`, ledgerEntryId: moved.value.entry.id })
      .where(eq(topUpRequests.id, requestId))
      .returning();
    await writeAudit(tx, actor, {
      action: 'top_up_request.approve',
      targetType: 'integration',
      targetId: request.integrationId,
      before: { requestId, state: 'pending' },
      after: { requestId, state: 'approved', amountCentavos: request.amountCentavos, ledgerEntryId: moved.value.entry.id },
    });
    return ok({ request: decided!, balanceCentavos: moved.value.balanceCentavos, integration: moved.value.integration });
  });
  if (!result.ok) return result;
  const { integration, request, balanceCentavos } = result.value;
  await afterBalanceMoved(integration, request.amountCentavos);
  // After the commit, and never failing the approval: the billing contact and the webhook are told.
  await integratorNotifier().noteTopUpApproved(integration, decidedTopUp(request), balanceCentavos);
  return ok({ request: result.value.request, balanceCentavos: result.value.balanceCentavos });
}

/** Rejects a pending request with a reason the integrator reads; its bank reference is free again. */
export async function rejectTopUpRequest(actor: Actor, requestId: number, rawReason: string): Promise<Result<TopUpRequest, TopUpError>> {
  const reason = rawReason.trim();
  if (reason.length < 5 || reason.length > 500) return fail('invalid', TOP_UP_MESSAGES.reason);
  const result = await (await db()).transaction(async (tx) => {
    const [request] = await tx.select().from(topUpRequests).where(eq(topUpRequests.id, requestId)).for('update');
    if (!request) return fail('not_found', TOP_UP_MESSAGES.notFound);
    if (request.state !== 'pending') return fail('decided', TOP_UP_MESSAGES.decided);
    const [integration] = await tx.select({ id: integrations.id, nombre: integrations.nombre }).from(integrations).where(eq(integrations.id, request.integrationId));
    const [decided] = await tx
      .update(topUpRequests)
      .set({ state: 'rejected', reason, decidedBy: describeActor(actor), decidedAt: sql`now()` })
      .where(eq(topUpRequests.id, requestId))
      .returning();
    await writeAudit(tx, actor, {
      action: 'top_up_request.reject',
      targetType: 'integration',
      targetId: request.integrationId,
      before: { requestId, state: 'pending' },
      after: { requestId, state: 'rejected', reason },
    });
    return ok({ request: decided!, integration: integration! });
  });
  if (!result.ok) return result;
  await integratorNotifier().noteTopUpRejected(result.value.integration, decidedTopUp(result.value.request));
  return ok(result.value.request);
}

function decidedTopUp(request: TopUpRequest): DecidedTopUp {
  return {
    id: request.id,
    bankName: bankName(request.bank),
    reference: request.reference,
    depositDate: request.depositDate,
    amountCentavos: request.amountCentavos,
    reason: request.reason,
    decidedAt: request.decidedAt ?? new Date(),
  };
}

export interface TopUpRequestView extends TopUpRequest {
  integrationName: string;
  reporterEmail: string;
  slip: { contentType: string; sizeBytes: number } | null;
}

const viewColumns = {
  request: topUpRequests,
  integrationName: integrations.nombre,
  reporterEmail: portalUsers.email,
  slipType: topUpSlips.contentType,
  slipSize: topUpSlips.sizeBytes,
};

function toView(row: { request: TopUpRequest; integrationName: string; reporterEmail: string; slipType: string | null; slipSize: number | null }): TopUpRequestView {
  return { ...row.request, integrationName: row.integrationName, reporterEmail: row.reporterEmail, slip: row.slipType ? { contentType: row.slipType, sizeBytes: row.slipSize! } : null };
}

async function selectViews(where: SQL | undefined, order: SQL[], limit: number): Promise<Array<TopUpRequestView & { cursor: KeysetCursor }>> {
  const rows = await (await db())
    .select({ ...viewColumns, cursorTimestamp: cursorInstant(topUpRequests.createdAt) })
    .from(topUpRequests)
    .innerJoin(integrations, eq(integrations.id, topUpRequests.integrationId))
    .innerJoin(portalUsers, eq(portalUsers.id, topUpRequests.reportedBy))
    .leftJoin(topUpSlips, eq(topUpSlips.requestId, topUpRequests.id))
    .where(where)
    .orderBy(...order)
    .limit(limit);
  return rows.map((row) => ({ ...toView(row), cursor: { createdAt: row.cursorTimestamp, id: row.request.id } }));
}

/** One page of a list of requests, and the cursor of the next page when there is one (lib/paging). */
export interface TopUpRequestPage {
  rows: TopUpRequestView[];
  next?: string;
}

async function selectPage(where: SQL, order: SQL[], pageSize: number): Promise<TopUpRequestPage> {
  const rows = await selectViews(where, order, pageSize + 1);
  const page = rows.slice(0, pageSize);
  return {
    rows: page.map(withoutCursor),
    next: rows.length > pageSize ? encodeCursor(page.at(-1)!.cursor) : undefined,
  };
}

function withoutCursor(row: TopUpRequestView & { cursor: KeysetCursor }): TopUpRequestView {
  const view: TopUpRequestView & { cursor?: KeysetCursor } = { ...row };
  delete view.cursor;
  return view;
}

export const TOP_UP_PAGE_SIZE = 50;

/**
 * One integration's requests, newest first (the portal's "Recargas", `npm run cli -- top-ups:list
 * --integration`), a page at a time: a weekly depositor has some fifty a year. `after` is the
 * cursor of the page before; `next` leads to older requests. The integration's index serves both.
 */
export function integrationTopUpPage(integrationId: number, after?: string, pageSize = TOP_UP_PAGE_SIZE): Promise<TopUpRequestPage> {
  const cursor = decodeCursor(after);
  const where = and(eq(topUpRequests.integrationId, integrationId), cursor ? beyondCursor(topUpRequests.createdAt, topUpRequests.id, cursor, 'older') : undefined)!;
  return selectPage(where, [desc(topUpRequests.createdAt), desc(topUpRequests.id)], pageSize);
}

/**
 * Pending requests of every integration, oldest first (the console's "Recargas pendientes" and
 * `top-ups:list`), a page at a time over the index of pending requests; `next` leads to newer ones.
 */
export function pendingTopUpPage(after?: string, pageSize = TOP_UP_PAGE_SIZE): Promise<TopUpRequestPage> {
  const cursor = decodeCursor(after);
  const where = and(eq(topUpRequests.state, 'pending'), cursor ? beyondCursor(topUpRequests.createdAt, topUpRequests.id, cursor, 'newer') : undefined)!;
  return selectPage(where, [asc(topUpRequests.createdAt), asc(topUpRequests.id)], pageSize);
}

/** How many requests wait for an administrator (the navigation's badge). */
export async function pendingTopUpCount(): Promise<number> {
  const [row] = await (await db()).select({ value: count() }).from(topUpRequests).where(eq(topUpRequests.state, 'pending'));
  return row?.value ?? 0;
}

export async function findTopUpRequest(requestId: number): Promise<TopUpRequestView | undefined> {
  const [view] = await selectViews(eq(topUpRequests.id, requestId), [asc(topUpRequests.id)], 1);
  return view;
}

/**
 * A request's slip; with `integrationId`, only if the request is that integration's (the portal:
 * another integration's request answers as one that does not exist).
 */
export async function findTopUpSlip(requestId: number, integrationId?: number): Promise<{ contentType: string; content: Uint8Array } | undefined> {
  const scope = integrationId === undefined ? eq(topUpRequests.id, requestId) : and(eq(topUpRequests.id, requestId), eq(topUpRequests.integrationId, integrationId));
  const [row] = await (await db())
    .select({ contentType: topUpSlips.contentType, content: topUpSlips.content })
    .from(topUpSlips)
    .innerJoin(topUpRequests, eq(topUpRequests.id, topUpSlips.requestId))
    .where(scope);
  return row;
}

function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: string; cause?: { code?: string } })?.code ?? (error as { cause?: { code?: string } })?.cause?.code;
  return code === '23505';
}
