import { saleAwaitsReceptor } from '@/lib/core/billing/events';
import { asc, eq, sql } from 'drizzle-orm';
import { db } from '@/db/client';
import { integrations, ledgerEntries, type Integration } from '@/db/schema';
import { balanceMayBeShort } from '@/lib/core/billing/events';
import { writeAudit, describeActor, type Actor } from '@/lib/core/audit/audit';
import { fail, ok, type Result } from '@/lib/platform/result';
import { announceCredentialChange } from '@/lib/core/credentials/changes';
import { parseAllowList } from '@/lib/core/credentials/allow-list';
import { allowListProblemsText } from './allow-list-messages';
import { DEFAULT_TOKEN_LABEL, issueIntegrationToken, rotateToken as rotateIntegrationToken, type TokenView, toTokenView } from '@/lib/flows/integration-management/tokens';
import type { OverlapPreset } from '@/lib/core/credentials/token-state';
import { FLAG_NAMES, flagsOf, type FlagName, type IntegrationFlags } from '@/lib/core/integrations/flags';
import { integrationNameSchema, integrationPurposeSchema, lowBalanceAlertCentavosSchema, positiveCentavosSchema, tariffCentavosSchema } from './setting-schemas';
import { notifyIntegrationChanged } from '@/lib/core/integrations/directory';
import { allowListChanged, lookupsChanged, tariffChanged } from '@/lib/core/integrations/events';
import type { ValidDetails } from '@/lib/flows/integration-management/details-schemas';
import { FLAG_LOOKUP } from '@/lib/core/integrations/flags';
import { LOOKUP_LABELS } from '@/lib/vocabulary/labels';
import { invoicingDecisionFor } from '@/lib/core/invoices/decision';
import { planSaleInvoice, writeSaleInvoice } from '@/lib/core/invoices/sales';
import { noInvoiceReasonOf } from '@/lib/core/billing/ledger';

/** What the console and CLI may show about an integration (its tokens are in lib/core/credentials). */
export type IntegrationView = Integration;

export function toView(integration: Integration): IntegrationView {
  return integration;
}

function auditSnapshot(integration: Integration) {
  return {
    nombre: integration.nombre,
    ...flagsOf(integration),
    tariffCentavos: integration.tariffCentavos,
    balanceCentavos: integration.balanceCentavos,
    lowBalanceAlertCentavos: integration.lowBalanceAlertCentavos,
    active: integration.active,
    allowedNetworks: integration.allowedNetworks,
    purpose: integration.purpose,
    constanciasEnabled: integration.constanciasEnabled,
    constanciaTariffCentavos: integration.constanciaTariffCentavos,
    constanciaRetentionYears: integration.constanciaRetentionYears,
    constanciasLegalHold: integration.constanciasLegalHold,
  };
}

export interface CreateIntegrationInput {
  nombre: string;
  tariffCentavos?: number;
  flags?: Partial<IntegrationFlags>;
  initialBalanceCentavos?: number;
  note?: string;
  /** Legal name, NIT and contacts given at creation (lib/flows/integration-management/details-schemas.ts validates them). */
  details?: ValidDetails;
}

export type IntegrationError = 'invalid' | 'name_taken' | 'not_found' | 'insufficient_balance';

/** Creates an integration; the token is returned here once and stored only as a hash. */
export async function createIntegration(
  actor: Actor,
  input: CreateIntegrationInput,
): Promise<Result<{ integration: IntegrationView; token: string; tokenView: TokenView }, IntegrationError>> {
  const name = integrationNameSchema.safeParse(input.nombre);
  if (!name.success) return fail('invalid', name.error.issues[0]!.message);
  const tariff = tariffCentavosSchema.safeParse(input.tariffCentavos ?? 0);
  if (!tariff.success) return fail('invalid', `Tarifa inválida: ${tariff.error.issues[0]!.message}`);
  const initialBalance = input.initialBalanceCentavos ?? 0;
  if (initialBalance !== 0 && !positiveCentavosSchema.safeParse(initialBalance).success) {
    return fail('invalid', 'El saldo inicial debe ser un monto positivo en quetzales, de hasta Q 100,000,000.00.');
  }

  // An initial balance is a sale like any top-up: invoiced as the service decides (an invoice to CF
  // from Q 2,500.00 waits for the NIT; one credited before any instance decided waits for that).
  const database = await db();

  const taken = await database
    .select({ id: integrations.id })
    .from(integrations)
    .where(sql`lower(${integrations.nombre}) = lower(${name.data})`);
  if (taken.length > 0) return fail('name_taken', `Ya existe una integración llamada «${name.data}».`);

  try {
    const created = await database.transaction(async (tx) => {
      const [row] = await tx
        .insert(integrations)
        .values({
          nombre: name.data,
          tariffCentavos: tariff.data,
          balanceCentavos: initialBalance,
          ...input.flags,
          ...input.details,
        })
        .returning();
      const auditId = await writeAudit(tx, actor, {
        action: 'integration.create',
        targetType: 'integration',
        targetId: row!.id,
        before: null,
        after: { ...auditSnapshot(row!), ...input.details },
      });
      const issued = await issueIntegrationToken(tx, row!.id, DEFAULT_TOKEN_LABEL);
      if (initialBalance > 0) {
        const plan = planSaleInvoice(row!, initialBalance, await invoicingDecisionFor(tx));
        const [entry] = await tx.insert(ledgerEntries).values({
          integrationId: row!.id,
          kind: 'top_up',
          amountCentavos: initialBalance,
          postedCentavos: initialBalance,
          actor: describeActor(actor),
          note: input.note ?? 'Saldo inicial',
          auditId,
          noInvoiceReason: noInvoiceReasonOf('top_up', plan),
        }).returning({ id: ledgerEntries.id });
        await writeSaleInvoice(tx, plan, entry!.id);
        if (plan.kind === 'planned' && plan.awaitsReceptor) return { row: row!, issued, awaiting: { ledgerEntryId: entry!.id } };
      }
      return { row: row!, issued, awaiting: null };
    });
    await notifyIntegrationChanged();
    if (created.awaiting) {
      await saleAwaitsReceptor.emit({ integration: { id: created.row.id, nombre: created.row.nombre }, ledgerEntryId: created.awaiting.ledgerEntryId, amountCentavos: initialBalance });
    }
    return ok({ integration: toView(created.row), token: created.issued.token, tokenView: toTokenView(created.issued.row) });
  } catch (error) {
    if (isUniqueViolation(error)) return fail('name_taken', `Ya existe una integración llamada «${name.data}».`);
    throw error;
  }
}

export async function listIntegrations(): Promise<IntegrationView[]> {
  const rows = await (await db()).select().from(integrations).orderBy(asc(integrations.nombre));
  return rows.map(toView);
}

export async function findIntegration(idOrName: string | number): Promise<IntegrationView | undefined> {
  const row = await findIntegrationRow(idOrName);
  return row && toView(row);
}

async function findIntegrationRow(idOrName: string | number): Promise<Integration | undefined> {
  const database = await db();
  const byId = typeof idOrName === 'number' || /^\d+$/.test(idOrName);
  const [row] = await database
    .select()
    .from(integrations)
    .where(byId ? eq(integrations.id, Number(idOrName)) : sql`lower(${integrations.nombre}) = lower(${String(idOrName)})`);
  return row;
}

/**
 * Runs one audited change to an integration row: locks it, applies `change`, writes the audit
 * row in the same transaction, and tells this process's credential cache.
 */
async function changeIntegration(
  actor: Actor,
  idOrName: string | number,
  action: string,
  change: (current: Integration) => Partial<Integration>,
): Promise<Result<IntegrationView, IntegrationError>> {
  const changed = await changeIntegrationRow(actor, idOrName, action, change);
  return changed.ok ? ok(changed.value.after) : changed;
}

/** changeIntegration, with the row as it was under the lock: what the integrator is told changed. */
async function changeIntegrationRow(
  actor: Actor,
  idOrName: string | number,
  action: string,
  change: (current: Integration) => Partial<Integration>,
): Promise<Result<{ before: IntegrationView; after: IntegrationView }, IntegrationError>> {
  const found = await findIntegrationRow(idOrName);
  if (!found) return fail('not_found', `No existe la integración «${idOrName}».`);
  const database = await db();
  const updated = await database.transaction(async (tx) => {
    const [current] = await tx.select().from(integrations).where(eq(integrations.id, found.id)).for('update');
    const [row] = await tx
      .update(integrations)
      .set({ ...change(current!), updatedAt: sql`now()` })
      .where(eq(integrations.id, found.id))
      .returning();
    await writeAudit(tx, actor, {
      action,
      targetType: 'integration',
      targetId: found.id,
      before: auditSnapshot(current!),
      after: auditSnapshot(row!),
    });
    // Deactivation and flags are credentials too: every instance reloads at once.
    await announceCredentialChange(tx);
    return { before: current!, after: row! };
  });
  await notifyIntegrationChanged();
  return ok({ before: toView(updated.before), after: toView(updated.after) });
}

export async function setFlags(actor: Actor, idOrName: string | number, flags: Partial<IntegrationFlags>): Promise<Result<IntegrationView, IntegrationError>> {
  const changes = Object.fromEntries(
    Object.entries(flags).filter(([flag, value]) => FLAG_NAMES.includes(flag as FlagName) && typeof value === 'boolean'),
  );
  const changed = await changeIntegrationRow(actor, idOrName, 'integration.set_flags', () => changes);
  if (!changed.ok) return changed;
  // The integration's technical contact is told which lookups an administrator turned on or off
  // (a form sent again unchanged tells nothing), named as the console names them.
  const { before, after } = changed.value;
  const turned = (to: boolean) => FLAG_NAMES.filter((flag) => before[flag] !== to && after[flag] === to).map((flag) => LOOKUP_LABELS[FLAG_LOOKUP[flag]]);
  const enabled = turned(true);
  const disabled = turned(false);
  if (enabled.length > 0 || disabled.length > 0) await lookupsChanged.emit({ integration: after, enabled, disabled, changedAt: after.updatedAt });
  return ok(after);
}

export async function setTariff(actor: Actor, idOrName: string | number, tariffCentavos: number) {
  const tariff = tariffCentavosSchema.safeParse(tariffCentavos);
  if (!tariff.success) return fail('invalid', `Tarifa inválida: ${tariff.error.issues[0]!.message}`);
  const changed = await changeIntegrationRow(actor, idOrName, 'integration.set_tariff', () => ({ tariffCentavos: tariff.data }));
  if (!changed.ok) return changed;
  const { before, after } = changed.value;
  // The billing contact is told the old and the new tariff, and from when (the change's commit):
  // lookups from then on are charged the new one.
  if (before.tariffCentavos !== after.tariffCentavos) {
    await tariffChanged.emit({ integration: after, previousCentavos: before.tariffCentavos, tariffCentavos: after.tariffCentavos, changedAt: after.updatedAt });
  }
  // A tariff the balance cannot pay leaves the integration's catalog lookups answering 402, as a
  // spent balance does: the same exhausted alert, under the same once-per-interval rule.
  if (after.balanceCentavos < after.tariffCentavos) await balanceMayBeShort.emit(after);
  return ok(after);
}

/**
 * The balance below which administrators are alerted (lib/reactions/alerts): centavos, 0 for "only when
 * exhausted", or null for the deployment's default (ALERT_LOW_BALANCE_DEFAULT_CENTAVOS).
 */
export async function setLowBalanceAlert(actor: Actor, idOrName: string | number, thresholdCentavos: number | null) {
  const threshold = lowBalanceAlertCentavosSchema.safeParse(thresholdCentavos);
  if (!threshold.success) return fail('invalid', `Umbral inválido: ${threshold.error.issues[0]!.message}`);
  return changeIntegration(actor, idOrName, 'integration.set_low_balance_alert', () => ({ lowBalanceAlertCentavos: threshold.data }));
}

/**
 * Replaces the integration's IP allow-list (addresses and CIDR ranges, IPv4 or IPv6; empty:
 * anywhere). Every entry is validated; nothing is saved if one is wrong.
 */
export async function setAllowedNetworks(actor: Actor, idOrName: string | number, entries: string | string[]): Promise<Result<IntegrationView, IntegrationError>> {
  const parsed = parseAllowList(entries);
  if (!parsed.ok) return fail('invalid', allowListProblemsText(parsed.problems));
  const changed = await changeIntegration(actor, idOrName, 'integration.set_allowed_networks', () => ({ allowedNetworks: parsed.entries }));
  // The integration's technical contact is told, whoever changed it (queued; the outbox delivers).
  if (changed.ok) {
    await allowListChanged.emit({ integration: changed.value, allowedNetworks: changed.value.allowedNetworks, changedAt: changed.value.updatedAt, actor });
  }
  return changed;
}

/**
 * The integration's declared purpose of use: what the integrator said it looks identifiers up for
 * (shown on its page and in its monthly statement; Decreto 57-2008 art. 30). Audited.
 */
export async function setPurpose(actor: Actor, idOrName: string | number, purpose: string): Promise<Result<IntegrationView, IntegrationError>> {
  const parsed = integrationPurposeSchema.safeParse(purpose);
  if (!parsed.success) return fail('invalid', parsed.error.issues[0]!.message);
  return changeIntegration(actor, idOrName, 'integration.set_purpose', () => ({ purpose: parsed.data }));
}

/** Whether the integration's lookups may ask for a constancia de consulta (docs/constancias.md). */
export function setConstancias(actor: Actor, idOrName: string | number, enabled: boolean) {
  return changeIntegration(actor, idOrName, 'integration.set_constancias', () => ({ constanciasEnabled: enabled }));
}

/** What each receipt costs (charged with its lookup when the balance covers it; docs/constancias.md). Audited. */
export function setConstanciaTariff(actor: Actor, idOrName: string | number, tariffCentavos: number) {
  const tariff = tariffCentavosSchema.safeParse(tariffCentavos);
  if (!tariff.success) return Promise.resolve(fail('invalid', `Tarifa inválida: ${tariff.error.issues[0]!.message}`));
  return changeIntegration(actor, idOrName, 'integration.set_constancia_tariff', () => ({ constanciaTariffCentavos: tariff.data }));
}

/** How long the proofs of its receipts are kept: 5 to 15 years (docs/constancias.md, "What we keep"). */
export function setConstanciaRetention(actor: Actor, idOrName: string | number, years: number) {
  if (!Number.isInteger(years) || years < 5 || years > 15) return Promise.resolve(fail('invalid', 'La retención de las constancias es de 5 a 15 años.'));
  return changeIntegration(actor, idOrName, 'integration.set_constancia_retention', () => ({ constanciaRetentionYears: years }));
}

/** A legal hold: while on, no receipt of the integration, nor its text, is purged. */
export function setConstanciasLegalHold(actor: Actor, idOrName: string | number, hold: boolean) {
  return changeIntegration(actor, idOrName, 'integration.set_constancias_legal_hold', () => ({ constanciasLegalHold: hold }));
}

export function setActive(actor: Actor, idOrName: string | number, active: boolean) {
  return changeIntegration(actor, idOrName, active ? 'integration.reactivate' : 'integration.deactivate', () => ({ active }));
}

/**
 * Rotates the integration's newest active token (lib/flows/integration-management/tokens.ts): a new token is
 * returned once; the old one keeps working for the chosen overlap (none by default: refused as
 * soon as every instance hears of the change).
 */
export async function rotateToken(
  actor: Actor,
  idOrName: string | number,
  options: { tokenId?: number; overlap?: OverlapPreset } = {},
): Promise<Result<{ integration: IntegrationView; token: string; tokenView: TokenView; replaced: TokenView }, IntegrationError | 'not_usable'>> {
  const found = await findIntegrationRow(idOrName);
  if (!found) return fail('not_found', `No existe la integración «${idOrName}».`);
  const rotated = await rotateIntegrationToken(actor, found.id, options);
  if (!rotated.ok) return rotated.error.code === 'not_found' ? fail('not_found', rotated.error.message) : fail(rotated.error.code, rotated.error.message);
  return ok({ integration: toView(found), token: rotated.value.token, tokenView: rotated.value.view, replaced: rotated.value.replaced });
}

function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: string; cause?: { code?: string } })?.code ?? (error as { cause?: { code?: string } })?.cause?.code;
  return code === '23505';
}
