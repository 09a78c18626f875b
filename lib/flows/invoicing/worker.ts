// The invoices' worker, on every instance: claims due invoices, certifies each with the identifier
// fixed at its sale, and settles what the certifier answered (docs/decisions.md, "FEL invoices").
// An invoice is marked indeterminate before it is sent, so a worker that dies mid-call leaves it to
// be settled by the certifier's lookup, like a call that timed out, before anything is sent again.
// Likewise an invoice written certified is recorded as told only once every listener took the
// event: each round tells again, after a grace, those an instance killed in between or a failed
// listener left untold (the integrator's notice is keyed by the invoice, so it still goes once).
// Log lines carry the invoice's id, outcomes and codes: never a receptor's NIT or name.
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Invoice } from '@/db/schema';
import { TOP_UP_LINE_DESCRIPTION } from '@/lib/vocabulary/labels';
import { runAsJob } from '@/lib/platform/jobs/context';
import { logger } from '@/lib/platform/logging/logger';
import { peekProcessSlot, setProcessSlot } from '@/lib/platform/runtime/process-state';
import { felIdentifier, type CertifyOutcome, type FelCertifier } from '@/lib/providers/fel/certifier';
import { emissionDay, prepareDocument, type DocumentType, type Issuer, type Receptor } from '@/lib/providers/fel/document';
import { certifierCredentialsRefused, invoiceCertified } from './events';
import { claimDueInvoices, claimUntoldInvoices, logAttempt, recordNoticeEmitted, updateClaimed } from './queue';
import { createReversalSettler } from './reversals';
import { certifierOf, invoicingSettings, issuerOf } from './settings';

/** SAT's emission window: FechaHoraEmision at most 5 days before the certification. */
export const EMISSION_WINDOW_MS = 5 * 86_400_000;
/** A retry is not scheduled closer than this to the window's end: past it SAT refuses the document. */
const WINDOW_MARGIN_MS = 3_600_000;

export interface InvoiceWorkerOptions {
  certifier: FelCertifier;
  issuer: Issuer;
  /** This worker's name in leases and the attempt log (an instance may run several in tests). */
  name?: string;
  /** Invoices claimed at once. */
  batch?: number;
  /** Covers a certify call and a lookup, with room: past it another worker may take the invoice. */
  leaseSeconds?: number;
  /** retry_later and unavailable lookups wait base × 2^(attempts − 1), at most the ceiling. */
  backoffBaseMs?: number;
  backoffCeilingMs?: number;
  /** How long wrong credentials stop this worker's queue. */
  credentialsPauseMs?: number;
  /**
   * How long a certified invoice may stay untold before a round tells it again: far longer than the
   * worker that wrote the state takes to tell it (a read and an insert), so a live one is not raced.
   */
  noticeGraceSeconds?: number;
  /** Untold invoices told again per round. */
  noticeBatch?: number;
}

export interface InvoiceWorker {
  readonly name: string;
  /** One round: tells again certified invoices left untold, claims due invoices and settles each; how many it claimed. */
  runOnce(): Promise<number>;
  /** Until when wrong credentials stopped the queue (null: running). */
  pausedUntil(): Date | null;
}

type Settlement = Parameters<typeof updateClaimed>[2];

export function createInvoiceWorker(options: InvoiceWorkerOptions): InvoiceWorker {
  const { certifier, issuer } = options;
  const name = options.name ?? `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  const batch = options.batch ?? 5;
  const leaseSeconds = options.leaseSeconds ?? 300;
  const backoffBaseMs = options.backoffBaseMs ?? 30_000;
  const backoffCeilingMs = options.backoffCeilingMs ?? 30 * 60_000;
  const credentialsPauseMs = options.credentialsPauseMs ?? 300_000;
  const noticeGraceSeconds = options.noticeGraceSeconds ?? 60;
  const noticeBatch = options.noticeBatch ?? 20;
  const log = logger('invoicing');
  let pausedUntil: Date | null = null;

  function backoffAt(emittedAt: Date, attempts: number, now: Date): Date {
    const waitMs = Math.min(backoffCeilingMs, backoffBaseMs * 2 ** Math.max(0, Math.min(attempts - 1, 30)));
    const next = new Date(now.getTime() + waitMs);
    const windowEnds = emittedAt.getTime() + EMISSION_WINDOW_MS - WINDOW_MARGIN_MS;
    // The last try is kept inside the window rather than lost past it.
    return next.getTime() > windowEnds ? new Date(Math.max(now.getTime(), windowEnds)) : next;
  }

  function backoff(invoice: Invoice, attempts: number, now: Date): Settlement {
    return { nextAttemptAt: backoffAt(invoice.emittedAt, attempts, now) };
  }

  // Voids and credit notes ride the same rounds, leases, back-off and credentials pause.
  const reversals = createReversalSettler({ certifier, issuer, name, leaseSeconds, backoff: backoffAt, credentialsPauseMs, onCredentialsRefused: () => pause() });

  async function attempt<T extends { kind: string }>(invoice: Invoice, holder: string, call: 'certify' | 'lookup', run: () => Promise<T>, detail: (outcome: T) => string | null) {
    const started = Date.now();
    const outcome = await run();
    const durationMs = Date.now() - started;
    await logAttempt({ invoiceId: invoice.id, call, certifier: certifier.name, outcome: outcome.kind, detail: detail(outcome), holder: name, durationMs });
    log.info({ invoiceId: invoice.id, call, outcome: outcome.kind, detail: detail(outcome), durationMs, holder }, 'FEL invoice attempt');
    return outcome;
  }

  async function settleInvoice(invoice: Invoice, holder: string): Promise<void> {
    const identifier = felIdentifier(invoice.identifier);
    const prepared = prepareDocument({
      type: invoice.documentType as DocumentType,
      issuer,
      receptor: receptorOf(invoice),
      lines: [{ goodsOrService: 'S', quantity: 1, description: TOP_UP_LINE_DESCRIPTION, unitPriceCentavos: invoice.totalCentavos }],
      emittedAt: invoice.emittedAt,
    });
    if (!identifier || !prepared.ok) {
      const codes = prepared.ok ? 'identifier_invalid' : prepared.problems.map((problem) => problem.code).join(',');
      log.warn({ invoiceId: invoice.id, problems: codes }, 'FEL invoice cannot be built; left to correct');
      await updateClaimed(invoice.id, holder, { state: 'to_correct', lastErrorCode: 'DOCUMENTO', lastErrorMessage: `El documento no se pudo armar (${codes}).` });
      return;
    }
    const document = prepared.document;
    let attempts = invoice.attempts;

    if (invoice.state === 'indeterminate') {
      attempts += 1;
      const found = await attempt(
        invoice,
        holder,
        'lookup',
        () => certifier.lookupByIdentifier({ identifier, issuerNit: document.issuer.nit, documentType: document.type, establishmentCode: document.issuer.establishmentCode, emittedOn: emissionDay(document) }),
        (outcome) => (outcome.kind === 'unavailable' ? outcome.detail : null),
      );
      if (found.kind === 'found') {
        const settled = await updateClaimed(invoice.id, holder, { state: 'certified', attempts, certifier: certifier.name, uuid: found.uuid, serie: found.serie, numero: found.numero, certifiedAt: new Date(), lastErrorCode: null, lastErrorMessage: null });
        if (settled) await tell(invoice);
        return;
      }
      if (found.kind === 'unavailable') {
        await updateClaimed(invoice.id, holder, { attempts, ...backoff(invoice, attempts, new Date()), lastErrorCode: 'CONSULTA', lastErrorMessage: 'No se pudo consultar al certificador si el documento quedó certificado; se volverá a consultar.' });
        return;
      }
      // not_found: the certifier confirms it never issued this identifier; sent again below, same identifier.
    }

    // Written before the call: if this worker dies while it waits, the invoice is settled by lookup.
    attempts += 1;
    if (!(await updateClaimed(invoice.id, holder, { state: 'indeterminate', attempts, certifier: certifier.name }, false))) return;
    const outcome = await attempt(invoice, holder, 'certify', () => certifier.certify(document, identifier), certifyDetail);
    const settled = await updateClaimed(invoice.id, holder, settlementOf(invoice, outcome, attempts));
    if (settled && (outcome.kind === 'certified' || outcome.kind === 'already_certified')) await tell(invoice);
    if (outcome.kind === 'credentials_refused') await pause();
  }

  function settlementOf(invoice: Invoice, outcome: CertifyOutcome, attempts: number): Settlement {
    const now = new Date();
    switch (outcome.kind) {
      case 'certified':
        return { state: 'certified', uuid: outcome.uuid, serie: outcome.serie, numero: outcome.numero, certifiedAt: outcome.certifiedAt, certifiedXml: outcome.xml, lastErrorCode: null, lastErrorMessage: null };
      case 'already_certified':
        return { state: 'certified', uuid: outcome.uuid, serie: outcome.serie, numero: outcome.numero, certifiedAt: now, lastErrorCode: null, lastErrorMessage: null };
      case 'indeterminate':
        return { state: 'indeterminate', ...backoff(invoice, 1, now), lastErrorCode: 'SIN_RESPUESTA', lastErrorMessage: 'El certificador no respondió con claridad; se consultará si el documento quedó certificado antes de reenviarlo.' };
      case 'retry_later':
        return { state: 'pending', ...backoff(invoice, attempts, now), lastErrorCode: outcome.reason.toUpperCase(), lastErrorMessage: 'El certificador pidió reintentar más tarde; se reenviará con el mismo identificador.' };
      case 'credentials_refused':
        return { state: 'pending', nextAttemptAt: new Date(now.getTime() + credentialsPauseMs), lastErrorCode: 'CREDENCIALES', lastErrorMessage: 'El certificador rechazó las credenciales: revise FEL_SIGNING_* y FEL_API_*.' };
      case 'rejected': {
        const first = outcome.errors[0];
        return {
          state: 'to_correct',
          lastErrorCode: first?.code ?? null,
          lastErrorMessage: outcome.errors.map((error) => (error.code ? `${error.code}: ${error.message}` : error.message)).join(' · ') || 'El certificador rechazó el documento.',
        };
      }
    }
  }

  /**
   * Only the claim that wrote "certified" tells at once (a lost lease wrote nothing and tells
   * nothing); the mark is written once every listener took it, else a later round tells it again.
   */
  async function tell(invoice: Pick<Invoice, 'id' | 'integrationId'>): Promise<void> {
    const failures = await invoiceCertified.settle({ invoiceId: invoice.id, integrationId: invoice.integrationId });
    for (const error of failures) log.error({ err: error, invoiceId: invoice.id }, 'telling of a certified FEL invoice failed; a later round tells it again');
    if (failures.length > 0) return;
    try {
      await recordNoticeEmitted(invoice.id);
    } catch (error) {
      log.error({ err: error, invoiceId: invoice.id }, 'a certified FEL invoice was told but not recorded so; a later round tells it again');
    }
  }

  /** The certified invoices whose telling did not finish, told again (at most noticeBatch a round). */
  async function tellUntold(): Promise<void> {
    try {
      const untold = await claimUntoldInvoices(noticeGraceSeconds, noticeBatch);
      for (const invoice of untold) {
        log.warn({ invoiceId: invoice.id }, 'a certified FEL invoice left untold is told again');
        await tell(invoice);
      }
    } catch (error) {
      log.error({ err: error }, 'looking for certified FEL invoices left untold failed');
    }
  }

  async function pause(): Promise<void> {
    const until = new Date(Date.now() + credentialsPauseMs);
    const opened = pausedUntil === null;
    pausedUntil = until;
    log.error({ certifier: certifier.name, pausedUntil: until.toISOString() }, 'FEL certifier refused the credentials; invoices paused');
    if (opened) await certifierCredentialsRefused.emit({ certifier: certifier.name, pausedUntil: until });
  }

  return {
    name,
    pausedUntil: () => pausedUntil,
    async runOnce() {
      // Before the pause: telling needs no certifier. Before the claims: an invoice certified in this
      // round is told by its claim, not raced by this look.
      await tellUntold();
      if (pausedUntil !== null) {
        if (pausedUntil.getTime() > Date.now()) return 0;
        pausedUntil = null;
      }
      const holder = `${name}/${randomBytes(6).toString('hex')}`;
      const claimed = await claimDueInvoices(holder, batch, leaseSeconds);
      for (const invoice of claimed) {
        if (pausedUntil !== null) {
          // The queue stopped: the rest wait for the pause, untouched.
          await updateClaimed(invoice.id, holder, { nextAttemptAt: pausedUntil });
          continue;
        }
        try {
          await settleInvoice(invoice, holder);
        } catch (error) {
          // The lease runs out and another round takes it: the identifier keeps a resend harmless.
          log.error({ err: error, invoiceId: invoice.id }, 'FEL invoice attempt failed');
        }
      }
      return claimed.length + (await reversals.runOnce(holder, batch, () => pausedUntil));
    },
  };
}

function certifyDetail(outcome: CertifyOutcome): string | null {
  switch (outcome.kind) {
    case 'certified':
    case 'already_certified':
      return null;
    case 'rejected':
      return outcome.errors.map((error) => error.code ?? 'sin código').join(',');
    case 'retry_later':
    case 'indeterminate':
      return outcome.reason;
    case 'credentials_refused':
      return 'credentials_refused';
  }
}

function receptorOf(invoice: Invoice): Receptor {
  if (invoice.receptorKind === 'cf') return { kind: 'cf' };
  const name = invoice.receptorName ?? '';
  return invoice.receptorKind === 'nit' ? { kind: 'nit', nit: invoice.receptorId, name } : { kind: 'cui', cui: invoice.receptorId, name };
}

interface WorkerState {
  stopped: boolean;
  timer: ReturnType<typeof setTimeout> | null;
}

/** Starts this instance's worker when FEL is on; every instance runs one (leases share the queue). */
export function startInvoiceWorker(): void {
  const settings = invoicingSettings();
  if (!settings.FEL_ENABLED || peekProcessSlot('invoiceWorker')) return;
  const certifier = certifierOf(settings);
  const issuer = issuerOf(settings);
  if (!certifier || !issuer) {
    logger('invoicing').error('FEL is on but its certifier or issuer settings are incomplete: no invoice is certified');
    return;
  }
  const worker = createInvoiceWorker({
    certifier,
    issuer,
    credentialsPauseMs: settings.FEL_CREDENTIALS_PAUSE_MS,
    // Past a certify call's time-out, twice over, with time to write its answer: a lease that runs
    // out early only costs a lookup (the identifier keeps a resend harmless), a long one delays the
    // orphan of a killed instance.
    leaseSeconds: Math.ceil((2 * settings.FEL_CERTIFY_TIMEOUT_MS) / 1000) + 15,
  });
  const state: WorkerState = { stopped: false, timer: null };
  setProcessSlot('invoiceWorker', state);
  const log = logger('invoicing');
  log.info({ certifier: certifier.name, everyMs: settings.FEL_WORKER_INTERVAL_MS }, 'FEL invoices on: this instance certifies due invoices');
  const turn = async () => {
    let claimed = 0;
    try {
      claimed = await worker.runOnce();
    } catch (error) {
      log.error({ err: error }, 'FEL invoice worker round failed');
    }
    if (state.stopped) return;
    // A full round may have left more due: look again at once.
    state.timer = setTimeout(() => void turn(), claimed > 0 ? 0 : settings.FEL_WORKER_INTERVAL_MS);
    state.timer.unref();
  };
  runAsJob('invoice-worker', () => void turn());
}

/** Stops this instance's worker (tests; a drain): an invoice in a call finishes, the rest wait for another. */
export function stopInvoiceWorker(): void {
  const state = peekProcessSlot<WorkerState>('invoiceWorker');
  if (!state) return;
  state.stopped = true;
  if (state.timer) clearTimeout(state.timer);
  setProcessSlot('invoiceWorker', undefined);
}

