import { and, asc, count, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { db } from '@/db/client';
import { integrations, portalUsers, topUpRequests, topUpSlips, type TopUpRequest } from '@/db/schema';
import { describeActor, writeAudit, type Actor, type IntegratorActor } from '@/lib/core/audit/audit';
import { afterBalanceMoved, topUpWithin, type Transaction } from '@/lib/core/billing/ledger';
import { approvedTopUpNote } from './notes';
import { topUpSettings } from './settings';
import { guatemalanDayBefore, guatemalanToday, isCalendarDay } from '@/lib/platform/time/guatemala-time';
import { positiveCentavosSchema } from '@/lib/flows/integration-management/setting-schemas';
import { topUpApproved, topUpRejected, type DecidedTopUp } from './events';
import { TOP_UP_REPORTERS } from './reporters';
import type { PortalRole } from '@/db/schema';
import { beyondCursor, cursorInstant, decodeCursor, encodeCursor, type KeysetCursor } from '@/lib/platform/paging/keyset';
import { fail, ok, type Result } from '@/lib/platform/result';
import { bankName, isBankCode } from '@/lib/platform/guatemala/banks';
import { APPROVAL_NOTE_MAX_LENGTH, depositTooOldMessage, TOP_UP_MESSAGES } from './messages';
import { readSlip } from './slips';

export { TOP_UP_MESSAGES };

// Top-up requests: an integrator reports a deposit, an administrator approves
// or rejects it. Approval credits through the console's own top-up (lib/core/billing/ledger.ts) in the
// same transaction as the request's state change, so the request and its money commit together,
// and the locked request row makes every later approval find it decided: a double click, or two
// instances approving at once, credit once. A bank reference is taken by at most one request that
// is pending or approved (a unique index on its letters and digits, keyed by PostgreSQL), so the
// same deposit is never credited twice, however it was typed. The administrator may credit another
// amount than reported (what the bank's statement shows), saying why in a note the integrator reads;
// the reporter (or an owner) may cancel a report while it is pending, which frees its reference as a
// rejection does.


export type TopUpError = 'invalid' | 'forbidden' | 'duplicate' | 'not_found' | 'decided';

/** The requests that hold their bank reference: pending or approved (the unique index's rule). */
const holdsReference = sql`${topUpRequests.state} in ('pending', 'approved')`;

/**
 * "dup 777", "DUP-777" and "Dúp.777" as "DUP777": what makes two reports of one deposit the same
 * reference. PostgreSQL computes the stored key (top_up_requests.reference_key) by this same rule:
 * decomposed, every character but the ASCII letters and digits dropped (accents, spaces,
 * punctuation), upper case.
 */
export function referenceKey(text: string): string {
  return text.normalize('NFD').replace(/[^A-Za-z0-9]/g, '').toUpperCase();
}

/**
 * What a reference may hold: letters (accented ones too, which lose their accent in the key),
 * digits, and the spaces and signs slips print between them. A letter with no ASCII base (Ø, ß)
 * would vanish from the key and make two references one, so it is refused instead.
 */
const REFERENCE_CHARACTERS = /^[A-Za-z0-9 .,:;#/_-]+$/;
const REFERENCE_MAX_KEY_LENGTH = 40;
/** Far beyond any reference with its separators; the form's field stops at 60. */
const REFERENCE_MAX_TYPED_LENGTH = 100;

function isReference(typed: string): boolean {
  const key = referenceKey(typed);
  return (
    typed.length <= REFERENCE_MAX_TYPED_LENGTH &&
    REFERENCE_CHARACTERS.test(typed.normalize('NFD').replace(/\p{M}/gu, '')) &&
    key.length > 0 &&
    key.length <= REFERENCE_MAX_KEY_LENGTH
  );
}

/**
 * The first deposit day taken (YYYY-MM-DD, Guatemala's calendar): TOP_UP_DEPOSIT_MAX_AGE_DAYS
 * before today. An older deposit could no longer be checked against the bank's statement.
 */
export function earliestDepositDate(now = new Date()): string {
  return guatemalanDayBefore(guatemalanToday(now), topUpSettings().TOP_UP_DEPOSIT_MAX_AGE_DAYS);
}

function depositDateProblem(day: string, now: Date): string | undefined {
  if (!isCalendarDay(day) || day > guatemalanToday(now)) return TOP_UP_MESSAGES.date;
  const earliest = earliestDepositDate(now);
  if (day < earliest) return depositTooOldMessage(earliest, topUpSettings().TOP_UP_DEPOSIT_MAX_AGE_DAYS);
  return undefined;
}

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
  // As typed, but on one line: a tab or a line break pasted with it would break the statement's lines.
  const reference = report.reference.trim().replace(/\s+/g, ' ');
  if (!isReference(reference)) fieldErrors.referencia = TOP_UP_MESSAGES.reference;
  const dateProblem = depositDateProblem(report.depositDate, now);
  if (dateProblem) fieldErrors.fecha = dateProblem;
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
          reference,
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
    // The unique index on the bank and the reference's key answers a report of a deposit already
    // reported, however it was typed, and one racing another of the same deposit.
    if (isUniqueViolation(error)) return { ...fail('duplicate', TOP_UP_MESSAGES.duplicate), fieldErrors: { referencia: TOP_UP_MESSAGES.duplicate } };
    throw error;
  }
}

/** What an administrator decides on approving: another amount than reported needs a note. */
export interface ApprovalDecision {
  /** What to credit, in centavos; the reported amount when absent. */
  amountCentavos?: number;
  /** Why the amount differs (required then), shown to the integrator; optional otherwise. */
  note?: string;
}

const APPROVAL_NOTE_MIN_LENGTH = 5;

/** What a request credits (approved) or would credit: the approved amount, else the reported one. */
export function creditedCentavos(request: Pick<TopUpRequest, 'amountCentavos' | 'approvedAmountCentavos'>): number {
  return request.approvedAmountCentavos ?? request.amountCentavos;
}

/**
 * Approves a pending request: its top-up (the approved amount) enters the ledger with the state
 * change, once.
 */
export async function approveTopUpRequest(
  actor: Actor,
  requestId: number,
  decision: ApprovalDecision = {},
): Promise<Result<{ request: TopUpRequest; balanceCentavos: number; invoiceAwaitsReceptor: boolean }, TopUpError> & { fieldErrors?: Partial<Record<'monto' | 'nota', string>> }> {
  const note = decision.note?.trim() || null;
  if (decision.amountCentavos !== undefined) {
    const amount = positiveCentavosSchema.safeParse(decision.amountCentavos);
    if (!amount.success) return { ...fail('invalid', amount.error.issues[0]!.message), fieldErrors: { monto: amount.error.issues[0]!.message } };
  }
  if (note !== null && (note.length < APPROVAL_NOTE_MIN_LENGTH || note.length > APPROVAL_NOTE_MAX_LENGTH)) {
    return { ...fail('invalid', TOP_UP_MESSAGES.approvalNote), fieldErrors: { nota: TOP_UP_MESSAGES.approvalNote } };
  }
  const result = await (await db()).transaction(async (tx) => {
    // The row lock orders concurrent approvals, and an approval against a cancellation: the second
    // reads the first's committed decision.
    const [request] = await tx.select().from(topUpRequests).where(eq(topUpRequests.id, requestId)).for('update');
    if (!request) return fail('not_found', TOP_UP_MESSAGES.notFound);
    if (request.state !== 'pending') return fail('decided', TOP_UP_MESSAGES.decided);
    const credited = decision.amountCentavos ?? request.amountCentavos;
    if (credited !== request.amountCentavos && note === null) return fail('invalid', TOP_UP_MESSAGES.approvalNoteRequired);
    const moved = await topUpWithin(tx, actor, request.integrationId, credited, approvedTopUpNote(request, credited, note));
    if (!moved.ok) throw new Error(`top-up request ${requestId} could not be credited: ${moved.error.code}`);
    const [decided] = await tx
      .update(topUpRequests)
      .set({ state: 'approved', approvedAmountCentavos: credited, approvalNote: note, decidedBy: describeActor(actor), decidedAt: sql`now()`, ledgerEntryId: moved.value.entry.id })
      .where(eq(topUpRequests.id, requestId))
      .returning();
    await writeAudit(tx, actor, {
      action: 'top_up_request.approve',
      targetType: 'integration',
      targetId: request.integrationId,
      before: { requestId, state: 'pending', amountCentavos: request.amountCentavos },
      after: { requestId, state: 'approved', amountCentavos: credited, reportedAmountCentavos: request.amountCentavos, note, ledgerEntryId: moved.value.entry.id },
    });
    return ok({ request: decided!, balanceCentavos: moved.value.balanceCentavos, integration: moved.value.integration, moved: moved.value });
  });
  if (!result.ok) {
    return result.error.code === 'invalid' ? { ...result, fieldErrors: { nota: result.error.message } } : result;
  }
  const { integration, request, balanceCentavos } = result.value;
  await afterBalanceMoved(integration, creditedCentavos(request), result.value.moved);
  // After the commit, and never failing the approval: the billing contact and the webhook are told.
  await topUpApproved.emit({ integration, request: decidedTopUp(request), balanceCentavos });
  return ok({ request: result.value.request, balanceCentavos: result.value.balanceCentavos, invoiceAwaitsReceptor: result.value.moved.invoiceAwaitsReceptor });
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
    if (!request.legacyDuplicate) await passReferenceOn(tx, request);
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
  await topUpRejected.emit({ integration: result.value.integration, request: decidedTopUp(result.value.request) });
  return ok(result.value.request);
}

/** Who may cancel a pending report besides the person who reported it: the integration's owners. */
export const TOP_UP_CANCELLERS_OF_OTHERS: readonly PortalRole[] = ['propietario'];

/**
 * Cancels a pending report of the reporter's integration: its reporter, or an owner, withdraws it
 * (a wrong amount, a deposit reported twice). One conditional UPDATE decides it against an approval
 * at the same moment: whichever takes the row first wins, and the other finds it no longer pending.
 * Its bank reference is free again, as a rejection's; its slip stays with it, as a rejected one's.
 */
export async function cancelTopUpRequest(reporter: Reporter, requestId: number): Promise<Result<TopUpRequest, TopUpError>> {
  if (!TOP_UP_REPORTERS.includes(reporter.role)) return fail('forbidden', TOP_UP_MESSAGES.forbidden);
  const mayCancelOthers = TOP_UP_CANCELLERS_OF_OTHERS.includes(reporter.role);
  return (await db()).transaction(async (tx) => {
    const [cancelled] = await tx
      .update(topUpRequests)
      .set({ state: 'cancelled', decidedBy: describeActor(reporter.actor), decidedAt: sql`now()` })
      .where(
        and(
          eq(topUpRequests.id, requestId),
          eq(topUpRequests.integrationId, reporter.integrationId),
          eq(topUpRequests.state, 'pending'),
          mayCancelOthers ? undefined : eq(topUpRequests.reportedBy, reporter.id),
        ),
      )
      .returning();
    if (!cancelled) {
      // Why nothing changed, read within the caller's integration only: another's request is one that does not exist.
      const [found] = await tx
        .select({ state: topUpRequests.state, reportedBy: topUpRequests.reportedBy })
        .from(topUpRequests)
        .where(and(eq(topUpRequests.id, requestId), eq(topUpRequests.integrationId, reporter.integrationId)));
      if (!found) return fail('not_found', TOP_UP_MESSAGES.notFound);
      if (found.state !== 'pending') return fail('decided', TOP_UP_MESSAGES.notPending);
      return fail('forbidden', TOP_UP_MESSAGES.notYours);
    }
    if (!cancelled.legacyDuplicate) await passReferenceOn(tx, cancelled);
    await writeAudit(tx, reporter.actor, {
      action: 'top_up_request.cancel',
      targetType: 'integration',
      targetId: reporter.integrationId,
      before: { requestId, state: 'pending' },
      after: { requestId, state: 'cancelled', reportedBy: cancelled.reportedBy, amountCentavos: cancelled.amountCentavos },
    });
    return ok(cancelled);
  });
}

/**
 * A rejected or cancelled request that held its bank reference frees it; when an earlier duplicate
 * of it is still pending or approved, that one holds it now (in the same transaction), so the
 * deposit it reports cannot be reported and credited once more.
 */
async function passReferenceOn(tx: Transaction, rejected: TopUpRequest): Promise<void> {
  // Locked in turn: a duplicate rejected meanwhile is skipped for the next one.
  const [heir] = await tx
    .select({ id: topUpRequests.id })
    .from(topUpRequests)
    .where(and(eq(topUpRequests.bank, rejected.bank), eq(topUpRequests.referenceKey, rejected.referenceKey), sql`${topUpRequests.legacyDuplicate}`, holdsReference))
    .orderBy(sql`${topUpRequests.state} = 'approved' desc`, asc(topUpRequests.id))
    .limit(1)
    .for('update');
  if (heir) await tx.update(topUpRequests).set({ legacyDuplicate: false }).where(eq(topUpRequests.id, heir.id));
}

function decidedTopUp(request: TopUpRequest): DecidedTopUp {
  return {
    id: request.id,
    bankName: bankName(request.bank),
    reference: request.reference,
    depositDate: request.depositDate,
    amountCentavos: creditedCentavos(request),
    reportedAmountCentavos: request.amountCentavos,
    approvalNote: request.approvalNote,
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

type Database = Awaited<ReturnType<typeof db>>;

/** `by`: the instant a list is ordered and paged by (when reported, or when decided). */
function viewsQuery(database: Database, where: SQL | undefined, order: SQL[], limit: number, by: 'createdAt' | 'decidedAt' = 'createdAt') {
  return database
    .select({ ...viewColumns, cursorTimestamp: cursorInstant(topUpRequests[by]) })
    .from(topUpRequests)
    .innerJoin(integrations, eq(integrations.id, topUpRequests.integrationId))
    .innerJoin(portalUsers, eq(portalUsers.id, topUpRequests.reportedBy))
    .leftJoin(topUpSlips, eq(topUpSlips.requestId, topUpRequests.id))
    .where(where)
    .orderBy(...order)
    .limit(limit);
}

async function selectViews(where: SQL | undefined, order: SQL[], limit: number, by: 'createdAt' | 'decidedAt' = 'createdAt'): Promise<Array<TopUpRequestView & { cursor: KeysetCursor }>> {
  const rows = await viewsQuery(await db(), where, order, limit, by);
  return rows.map((row) => ({ ...toView(row), cursor: { createdAt: row.cursorTimestamp, id: row.request.id } }));
}

/** One page of a list of requests, and the cursor of the next page when there is one (lib/platform/paging). */
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

/** The history's order and page, as decidedTopUpPage reads it (tests/foundation/query-plans.test.ts reads its plan). */
export function decidedTopUpsQuery(database: Database, cursor: KeysetCursor | undefined, limit: number) {
  const where = and(sql`${topUpRequests.decidedAt} is not null`, cursor ? beyondCursor(topUpRequests.decidedAt, topUpRequests.id, cursor, 'older') : undefined);
  // Spelled as the index is (nulls last), so PostgreSQL reads it in order.
  return viewsQuery(database, where, [sql`${topUpRequests.decidedAt} desc nulls last`, sql`${topUpRequests.id} desc nulls last`], limit, 'decidedAt');
}

/**
 * Decided requests of every integration (approved, rejected, cancelled), the latest decision first:
 * the console's history under "Recargas pendientes", a page at a time over the index of decided
 * requests; `next` leads to earlier decisions.
 */
export async function decidedTopUpPage(after?: string, pageSize = TOP_UP_PAGE_SIZE): Promise<TopUpRequestPage> {
  const rows = await decidedTopUpsQuery(await db(), decodeCursor(after), pageSize + 1);
  const page = rows.slice(0, pageSize).map((row) => ({ ...toView(row), cursor: { createdAt: row.cursorTimestamp, id: row.request.id } }));
  return { rows: page.map(withoutCursor), next: rows.length > pageSize ? encodeCursor(page.at(-1)!.cursor) : undefined };
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

/** Requests of one deposit by the letters-and-digits rule: a bank, the reference's key, and each request (oldest first). */
export interface ReferenceDuplicateGroup {
  bank: string;
  key: string;
  requests: TopUpRequestView[];
}

/**
 * The pending or approved requests that share a bank and a reference key: only ever ones reported
 * before references were compared by letters and digits, since the unique index refuses any other.
 * Each such group has an earlier duplicate (the index holds at most one request of a key), so the
 * few of those lead, by their partial index, to the rest through the unique one.
 */
export async function referenceDuplicates(): Promise<ReferenceDuplicateGroup[]> {
  const pendingOrApproved = holdsReference;
  const earlier = await selectViews(and(sql`${topUpRequests.legacyDuplicate}`, pendingOrApproved), [asc(topUpRequests.id)], DUPLICATES_READ_AT_MOST);
  if (earlier.length === 0) return [];
  const holding = await selectViews(
    and(
      pendingOrApproved,
      sql`not ${topUpRequests.legacyDuplicate}`,
      inArray(topUpRequests.bank, [...new Set(earlier.map((row) => row.bank))]),
      inArray(topUpRequests.referenceKey, [...new Set(earlier.map((row) => row.referenceKey))]),
    ),
    [asc(topUpRequests.id)],
    DUPLICATES_READ_AT_MOST,
  );
  const groups = new Map<string, ReferenceDuplicateGroup>();
  for (const row of [...holding, ...earlier].sort((a, b) => a.id - b.id)) {
    const id = `${row.bank} ${row.referenceKey}`;
    const group = groups.get(id) ?? { bank: row.bank, key: row.referenceKey, requests: [] };
    group.requests.push(withoutCursor(row));
    groups.set(id, group);
  }
  return [...groups.values()].filter((group) => group.requests.length > 1).sort((a, b) => a.bank.localeCompare(b.bank) || a.key.localeCompare(b.key));
}

/** Earlier duplicates are what one migration found: a handful, never a page's worth of thousands. */
const DUPLICATES_READ_AT_MOST = 10_000;

function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: string; cause?: { code?: string } })?.code ?? (error as { cause?: { code?: string } })?.cause?.code;
  return code === '23505';
}
