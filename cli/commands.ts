import type { InvoiceReversal, InvoiceState } from '@/db/schema';
import { listInvoices, showInvoice, type ListedInvoice } from '@/lib/flows/invoicing/listing';
import { INVOICE_STANDING_LABELS, INVOICE_STATES, invoiceStanding, receptorText } from '@/lib/presentation/invoice-labels';
import { database } from '@/db/client';
import { booksByMonth, booksFindings, type BooksFinding, type BooksMonth } from '@/lib/core/billing/books';
import { INVOICE_MESSAGES, REVERSAL_MESSAGES } from '@/lib/core/invoices/messages';
import { requestReceptorCorrection } from '@/lib/core/billing/invoice-reversals';
import type { LookupKind } from '@/db/schema';
import { describeActor, type Actor } from '@/lib/core/audit/audit';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { heldInFlight, listHistoryPage, parseHistoryFilters, type HistoryRow } from '@/lib/core/billing/history';
import { verifyLedger, type CompletedVerification, type LedgerDifference } from '@/lib/core/billing/verify';
import { statementChargesCsvStream } from '@/lib/flows/statements/csv';
import { renderStatementPdf } from '@/lib/flows/statements/pdf';
import { statementInvoices } from '@/lib/flows/statements/invoices';
import { issueStatement } from '@/lib/flows/statements/statements';
import { adjustBalance, topUp } from '@/lib/core/billing/ledger';
import { CONTRACT_FLAG_NAMES, FLAG_NAMES, parseFlagName, type FlagName, type IntegrationFlags } from '@/lib/core/integrations/flags';
import {
  createIntegration,
  findIntegration,
  listIntegrations,
  rotateToken,
  setActive,
  setAllowedNetworks,
  setPurpose,
  setFlags,
  setTariff,
  type IntegrationView,
} from '@/lib/flows/integration-management/service';
import { formatQuetzales, parseQuetzales } from '@/lib/platform/money';
import { describeLedgerActor } from '@/lib/vocabulary/actor-labels';
import { formatDateTime, isCalendarDay } from '@/lib/platform/time/guatemala-time';
import { FLAG_LOOKUP } from '@/lib/core/integrations/flags';
import { HISTORY_KIND_LABELS, LOOKUP_LABELS } from '@/lib/vocabulary/labels';
import { LEDGER_DIFFERENCE_LABELS, ROLE_LABELS, TWO_FACTOR_LABELS, USER_STATE_LABELS } from '@/lib/presentation/labels';
import { createToken, listTokens, revokeToken, type TokenView } from '@/lib/flows/integration-management/tokens';
import { latestRefusedAddresses } from '@/lib/core/credentials/refused-addresses';
import { OVERLAP_PRESET_NAMES, parseOverlapPreset, TOKEN_STATE_LABELS, type OverlapPreset } from '@/lib/core/credentials/token-state';
import { listLatestRecords } from '@/lib/core/records/list';
import { accessReasonSchema, completeAccessEntry, writeAccessEntry } from '@/lib/core/personal-data/access-log';
import { exportFiltersForLog } from '@/lib/core/personal-data/export-log';
import { maskedIdentifiers } from '@/lib/core/sealing/masking';
import { formatNit, formatPhone, NOT_REGISTERED } from '@/lib/flows/integration-management/details-display';
import { contactsOf, detailsOf, setIntegrationDetails, type IntegrationContact, type IntegrationDetailsInput } from '@/lib/flows/integration-management/details-service';
import type { DetailField } from '@/lib/flows/integration-management/details-schemas';
import { describeRequestTrace } from '@/lib/core/request-traces/describe';
import { requestTrace } from '@/lib/core/request-traces/read';
import { untracedAnswersText } from '@/lib/core/request-traces/untraced';
import { isPlausibleRequestId, typedRequestId } from '@/lib/core/request-ids/typed';
import { purgeExpiredRecords } from '@/lib/flows/retention/purge';
import { partitionRecordsOnline } from '@/lib/core/records/partition-online';
import { resealRecords } from '@/lib/core/personal-data/reseal';
import type { Result } from '@/lib/platform/result';
import { env } from '@/lib/platform/settings/env';
import { requestTraceSettings } from '@/lib/core/request-traces/settings';
import { balanceSettings } from '@/lib/core/billing/settings';
import { recordRetentionSettings } from '@/lib/core/records/settings';
import { twoFactorRequired } from '@/lib/flows/auth/two-factor-policy';
import { resetTwoFactor, usersWithTwoFactor } from '@/lib/flows/two-factor/service';
import { createConsoleUser, findConsoleUserByEmail, listConsoleUsers, userRoleSchema, type ConsoleUserView } from '@/lib/flows/auth/users';
import { findPortalAccountByEmail } from '@/lib/flows/portal-identity/accounts';
import { invitePortalUser } from '@/lib/flows/portal-identity/invitations';
import { handOverPortalPasswordReset } from '@/lib/flows/portal-identity/passwords';
import { portalTwoFactorService } from '@/lib/flows/portal-identity/two-factor';
import { isPortalRole, PORTAL_ROLE_LABELS, PORTAL_ROLES } from '@/lib/flows/portal-identity/roles';
import { bankName } from '@/lib/platform/guatemala/banks';
import { TOP_UP_STATE_LABELS } from '@/lib/flows/top-ups/labels';
import {
  approveTopUpRequest,
  integrationTopUpPage,
  pendingTopUpPage,
  referenceDuplicates,
  rejectTopUpRequest,
  type TopUpRequestPage,
  type TopUpRequestView,
} from '@/lib/flows/top-ups/requests';
import { CliError } from './errors';
import { USAGE } from './usage';
import { readPassword } from './password-input';
import { terminalSafe as safe } from './terminal-text';

export { CliError, USAGE };

export interface CommandOutput {
  text: string;
  data: unknown;
  /** Not 0 when the answer itself is bad news (ledger:verify's differences): printed all the same. */
  exitCode?: number;
}

export type Options = Partial<Record<string, string | boolean>>;

export const CLI_ACTOR: Actor = { kind: 'cli', name: process.env.USER };

/** The widest lookup name ("Catálogo CUI/NIT"): the column after it stays aligned. */
const LOOKUP_COLUMN = Math.max(...Object.values(LOOKUP_LABELS).map((label) => label.length));

const TOKEN_SHOWN_ONCE = 'Token (se muestra una sola vez; guárdelo ahora):';


function required(args: string[], index: number, what: string): string {
  const value = args[index];
  if (!value) throw new CliError(`falta ${what}\n\n${USAGE}`);
  return value;
}

/**
 * A time as the console shows it, in Guatemala's time: "24/11/2026 04:02:09", the console's text
 * without its comma, which reads as one more separator in a line of columns (--json keeps UTC).
 */
function when(instant: Date): string {
  return formatDateTime(instant).replace(', ', ' ');
}

/** Whole numbers as Guatemala writes them: 202,482. */
function count(value: number): string {
  return value.toLocaleString('es-GT');
}

/** "1 integración", "2 integraciones". */
function counted(value: number, one: string, many: string): string {
  return `${count(value)} ${value === 1 ? one : many}`;
}

/** "a, b o c" (or "u" before a word that starts with the sound o: "rtu u omisos"). */
function alternatives(names: string[]): string {
  const last = names.at(-1)!;
  if (names.length === 1) return last;
  return `${names.slice(0, -1).join(', ')} ${/^h?o/i.test(last) ? 'u' : 'o'} ${last}`;
}

/** Lowercase and without accents: "Catálogo CUI/NIT", "catalogo cui/nit" and "CATÁLOGO CUI/NIT" are one name. */
function comparable(text: string): string {
  return text.trim().normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

/**
 * What an option's value names: a value the console shows by `labels` (a lookup, a kind of
 * movement) is typed by its console name or by its internal one, in any case.
 */
function namedValue<K extends string>(typed: string, labels: Record<K, string>): K | undefined {
  const wanted = comparable(typed);
  return (Object.keys(labels) as K[]).find((key) => comparable(key) === wanted || comparable(labels[key]) === wanted);
}

/** The names an option takes, the console's first: `shown` writes a label as a sentence says it. */
function acceptedNames<K extends string>(labels: Record<K, string>, shown: (label: string) => string = (label) => label): string {
  const quoted = (name: string) => (name.includes(' ') ? `"${name}"` : name);
  const keys = Object.keys(labels) as K[];
  return `${alternatives(keys.map((key) => quoted(shown(labels[key]))))} (también ${alternatives(keys)})`;
}

/** The CLI's entry point rewrites "-25" to this mark plus "25" so the argument parser keeps it. */
export const NEGATIVE_AMOUNT_MARK = 'negative:';

/** `what` names the amount in a sentence: "la tarifa", "el saldo inicial (--balance)". */
function amount(text: string, what: string): number {
  const centavos = signedAmount(text);
  if (centavos === undefined) throw new CliError(`${what} se escribe en quetzales, como 12.50 (se recibió «${safe(typedAmount(text))}»)`);
  return centavos;
}

/** The amount as the operator typed it (the entry point marks a leading minus). */
function typedAmount(text: string): string {
  return text.startsWith(NEGATIVE_AMOUNT_MARK) ? `-${text.slice(NEGATIVE_AMOUNT_MARK.length)}` : text;
}

function signedAmount(text: string): number | undefined {
  return text.startsWith(NEGATIVE_AMOUNT_MARK) ? negate(parseQuetzales(text.slice(NEGATIVE_AMOUNT_MARK.length))) : parseQuetzales(text);
}

function negate(value: number | undefined): number | undefined {
  return value === undefined ? undefined : -value;
}

/** A top-up request's id, the first argument. */
function topUpRequestId(args: string[]): number {
  const typed = required(args, 0, 'el número de la solicitud de recarga (top-ups:list las muestra)');
  if (!/^[1-9]\d{0,9}$/.test(typed) || Number(typed) > 2_147_483_647) throw new CliError(`el número de la solicitud es un entero positivo (se recibió «${safe(typed)}»)`);
  return Number(typed);
}

function describeTopUpRequest(request: TopUpRequestView): string {
  const decided = request.state === 'rejected' ? ` (motivo: ${safe(request.reason ?? '')})` : '';
  return (
    `#${request.id} ${safe(request.integrationName)} · ${formatQuetzales(request.amountCentavos)} · ${bankName(request.bank)} referencia ${safe(request.reference)} ` +
    `del ${request.depositDate.split('-').reverse().join('/')} · ${TOP_UP_STATE_LABELS[request.state]}${decided} · reportada ${formatDateTime(request.createdAt)} por ${safe(request.reporterEmail)}` +
    (request.slip ? ' · con boleta' : '')
  );
}

/** What a refusal for want of mail adds in the CLI: the way to hand the link over instead. */
const HAND_OVER_HINT =
  'Sin correo, puede entregar el enlace una vez usted mismo: repita la orden con --link --reason "quién lo pidió y por qué" (queda en la auditoría, el enlace no).';

/** --link's required reason (--reason, or --motivo as the other commands call it). */
function handOverReason(options: Options): string {
  const reason = options.reason ?? options.motivo;
  if (typeof reason !== 'string' || reason.trim() === '') {
    throw new CliError('--link exige un motivo: agregue --reason "quién lo pidió y por qué" (queda en la auditoría con quién y cuándo; el enlace no)');
  }
  return reason;
}

function unwrap<T>(result: Result<T>): T {
  if (!result.ok) throw new CliError(safe(result.error.message), result.error.code === 'not_found' ? 3 : 2);
  return result.value;
}

function parseFlagList(list: string | boolean | undefined): FlagName[] {
  if (typeof list !== 'string' || list.trim() === '') return [];
  if (list.trim() === 'all') return FLAG_NAMES;
  return list.split(',').map((item) => {
    const flag = parseFlagName(item);
    if (!flag) throw new CliError(`no existe la consulta «${safe(item)}»; use una de ${Object.values(CONTRACT_FLAG_NAMES).join(', ')} (o all)`);
    return flag;
  });
}

/** "recarga": a movement's kind as a sentence says it (the console's label starts a table cell). */
function lowercaseFirst(label: string): string {
  return label.charAt(0).toLowerCase() + label.slice(1);
}

function historyLine(row: HistoryRow): string {
  const source = row.kind === 'capture' ? `consulta ${row.queryRecordId ?? '-'}` : `${safe(describeLedgerActor(row.actor))}${row.note ? `  ${safe(row.note)}` : ''}`;
  return `  ${when(row.createdAt)}  ${HISTORY_KIND_LABELS[row.kind].padEnd(16)} ${formatQuetzales(row.amountCentavos).padStart(14)}  saldo ${formatQuetzales(row.balanceAfterCentavos).padStart(14)}  ${source}`;
}

function describeIntegration(integration: IntegrationView): string {
  // The console's name, and the one --enable and --disable take.
  const enabled = FLAG_NAMES.filter((flag) => integration[flag]).map((flag) => `${LOOKUP_LABELS[FLAG_LOOKUP[flag]]} (${CONTRACT_FLAG_NAMES[flag]})`);
  return [
    `#${integration.id} ${safe(integration.nombre)}${integration.active ? '' : ' (desactivada)'}`,
    `  tarifa ${formatQuetzales(integration.tariffCentavos)}  saldo ${formatQuetzales(integration.balanceCentavos)}`,
    `  consultas habilitadas: ${enabled.length ? enabled.join(', ') : '(ninguna)'}`,
    `  IP permitidas: ${integration.allowedNetworks.length ? integration.allowedNetworks.join(' ') : 'cualquier dirección'}`,
    `  finalidad: ${integration.purpose ? safe(integration.purpose) : '(no declarada)'}`,
  ].join('\n');
}

/** The integrations:details options and the detail each sets. */
export const DETAIL_OPTIONS: Record<string, DetailField> = {
  'technical-name': 'technicalContactName',
  'technical-email': 'technicalContactEmail',
  'technical-phone': 'technicalContactPhone',
  'billing-name': 'billingContactName',
  'billing-email': 'billingContactEmail',
  'billing-phone': 'billingContactPhone',
};

/** "#3 ana@example.com  Ana  Soporte  Activo  verificación en dos pasos: No activada": the Usuarios page's columns. */
function describeUser(user: ConsoleUserView, twoFactor: boolean): string {
  const secondFactor = twoFactor
    ? TWO_FACTOR_LABELS.enrolled
    : `${TWO_FACTOR_LABELS.notEnrolled}${twoFactorRequired() ? ` (${lowercaseFirst(TWO_FACTOR_LABELS.enrolsAtSignIn)})` : ''}`;
  return (
    `#${user.id} ${safe(user.email)}  ${safe(user.name)}  ${ROLE_LABELS[user.role]}  ${user.active ? USER_STATE_LABELS.active : USER_STATE_LABELS.disabled}` +
    `  verificación en dos pasos: ${secondFactor}${user.mustChangePassword ? '  debe cambiar su contraseña al entrar' : ''}`
  );
}

/** The razón social and NIT are the billing profile's: SAT's name for the NIT, looked up when it is saved. */
const DETAILS_FROM_BILLING_PROFILE =
  'la razón social y el NIT son los de los datos de facturación (el nombre lo da SAT al consultar el NIT): regístrelos en la consola, Integraciones → la integración → Datos → «Receptor de las facturas», o que el integrador lo haga en su portal, «Datos de facturación»';

function billingIdentityOf(integration: IntegrationView): { legalName: string | null; nit: string | null; billingAddress: string | null; invoiceEmail: string | null } {
  return { legalName: integration.legalName, nit: integration.nit, billingAddress: integration.billingAddress, invoiceEmail: integration.invoiceEmail };
}

function describeDetails(integration: IntegrationView): string {
  const contact = (found: IntegrationContact | null) =>
    found ? [found.name ?? 'sin nombre', found.email, found.phone && formatPhone(found.phone)].filter(Boolean).map((part) => safe(part!)).join(' · ') : 'no registrado';
  const contacts = contactsOf(integration);
  return [
    `#${integration.id} ${safe(integration.nombre)}: datos de la integración`,
    `  Razón social: ${integration.legalName ? safe(integration.legalName) : NOT_REGISTERED.legalName}`,
    `  NIT: ${integration.nit ? formatNit(integration.nit) : NOT_REGISTERED.nit}`,
    `  Dirección fiscal: ${integration.billingAddress ? safe(integration.billingAddress) : NOT_REGISTERED.address}`,
    `  Correo para facturas: ${integration.invoiceEmail ? safe(integration.invoiceEmail) : NOT_REGISTERED.invoiceEmail}`,
    `  Contacto técnico: ${contact(contacts.technical)}`,
    `  Contacto de facturación: ${contact(contacts.billing)}`,
  ].join('\n');
}

function describeToken(token: TokenView): string {
  const ends = token.revokedAt
    ? `revocado ${when(token.revokedAt)}`
    : token.expiresAt
      ? `${token.state === 'expired' ? 'venció' : 'deja de funcionar'} ${when(token.expiresAt)}`
      : 'sin vencimiento';
  const lastUsed = token.lastUsedAt ? when(token.lastUsedAt) : 'nunca';
  return `  token #${token.id} ${safe(token.tokenPrefix)}…  ${safe(token.label)}  ${TOKEN_STATE_LABELS[token.state]}  creado ${when(token.createdAt)}  último uso ${lastUsed}  ${ends}`;
}

function overlapOption(value: string | boolean | undefined): OverlapPreset {
  if (value === undefined) return 'none';
  const preset = parseOverlapPreset(value);
  if (!preset) throw new CliError(`--overlap admite ${OVERLAP_PRESET_NAMES.join(', ')}`);
  return preset;
}

function tokenIdArg(value: string | boolean | undefined, what: string): number {
  if (typeof value !== 'string' || !/^\d+$/.test(value)) throw new CliError(`${what} es el id de un token (integrations:tokens los lista)`);
  return Number(value);
}

async function integrationByArg(args: string[]): Promise<IntegrationView> {
  const key = required(args, 0, 'la integración (su id o su nombre)');
  const integration = await findIntegration(key);
  if (!integration) throw new CliError(`no existe la integración «${safe(key)}»`, 3);
  return integration;
}

const commands: Record<string, (args: string[], options: Options) => Promise<CommandOutput>> = {
  async 'integrations:create'(args, options) {
    const enabled = parseFlagList(options.enable);
    const flags = Object.fromEntries(enabled.map((flag) => [flag, true])) as Partial<IntegrationFlags>;
    const created = unwrap(
      await createIntegration(CLI_ACTOR, {
        nombre: required(args, 0, 'el nombre de la integración'),
        tariffCentavos: typeof options.tariff === 'string' ? amount(options.tariff, 'la tarifa (--tariff)') : 0,
        initialBalanceCentavos: typeof options.balance === 'string' ? amount(options.balance, 'el saldo inicial (--balance)') : 0,
        flags,
        note: typeof options.note === 'string' ? options.note : undefined,
      }),
    );
    return {
      data: { ...created.integration, token: created.token, tokenId: created.tokenView.id, tokenPrefix: created.tokenView.tokenPrefix },
      text: `${describeIntegration(created.integration)}\n\n${TOKEN_SHOWN_ONCE}\n  ${created.token}`,
    };
  },

  async 'integrations:list'() {
    const all = await listIntegrations();
    return { data: all, text: all.length ? all.map(describeIntegration).join('\n') : 'Todavía no hay integraciones.' };
  },

  async 'integrations:show'(args) {
    const integration = await integrationByArg(args);
    const { rows: ledger } = await listHistoryPage(integration.id, {}, {}, 10);
    return {
      data: { ...integration, ledger },
      text: `${describeIntegration(integration)}\n  últimos movimientos de saldo:\n${ledger.map(historyLine).join('\n') || '  (ninguno)'}`,
    };
  },

  async 'integrations:flags'(args, options) {
    const integration = await integrationByArg(args);
    const changes: Partial<IntegrationFlags> = {};
    for (const flag of parseFlagList(options.enable)) changes[flag] = true;
    for (const flag of parseFlagList(options.disable)) changes[flag] = false;
    if (Object.keys(changes).length === 0) throw new CliError('indique qué consultas cambiar con --enable, --disable o ambas');
    const updated = unwrap(await setFlags(CLI_ACTOR, integration.id, changes));
    return { data: updated, text: describeIntegration(updated) };
  },

  async 'integrations:tariff'(args) {
    const integration = await integrationByArg(args);
    const updated = unwrap(await setTariff(CLI_ACTOR, integration.id, amount(required(args, 1, 'la tarifa, en quetzales'), 'la tarifa')));
    return { data: updated, text: describeIntegration(updated) };
  },

  async 'integrations:top-up'(args, options) {
    const integration = await integrationByArg(args);
    // The console's message speaks of its field; here the note is an option, named as such.
    if (typeof options.note !== 'string' || options.note.trim().length === 0) {
      throw new CliError('falta la nota de la recarga: agregue --note "depósito 123456 de Banrural", por ejemplo (queda en el historial del saldo)');
    }
    const result = unwrap(
      await topUp(CLI_ACTOR, integration.id, amount(required(args, 1, 'el monto de la recarga, en quetzales'), 'el monto de la recarga'), String(options.note ?? '')),
    );
    const invoice = result.invoiceAwaitsReceptor ? `\n${INVOICE_MESSAGES.awaitingReceptor}` : result.invoiceDeferred ? `\n${INVOICE_MESSAGES.deferred}` : '';
    return { data: result, text: `${safe(integration.nombre)}: recarga registrada, saldo ${formatQuetzales(result.balanceCentavos)}${invoice}` };
  },

  async 'integrations:adjust'(args, options) {
    const integration = await integrationByArg(args);
    const typed = args[1];
    if (!typed) throw new CliError(`falta el monto del ajuste: +10.00 suma, -5.00 resta\n\n${USAGE}`);
    const centavos = signedAmount(typed);
    if (centavos === undefined) {
      throw new CliError(`el monto del ajuste se escribe en quetzales con su signo, como +10.00 para sumar o -5.00 para restar (se recibió «${safe(typedAmount(typed))}»)`);
    }
    const result = unwrap(await adjustBalance(CLI_ACTOR, integration.id, centavos, String(options.note ?? '')));
    return { data: result, text: `${safe(integration.nombre)}: ajuste de ${formatQuetzales(centavos)}, saldo ${formatQuetzales(result.balanceCentavos)}` };
  },

  async 'integrations:tokens'(args) {
    const integration = await integrationByArg(args);
    const tokens = await listTokens(integration.id);
    return { data: tokens, text: `#${integration.id} ${safe(integration.nombre)}\n${tokens.map(describeToken).join('\n')}` };
  },

  async 'integrations:token-create'(args, options) {
    const integration = await integrationByArg(args);
    let expiresAt: Date | null = null;
    if (typeof options.expires === 'string') {
      expiresAt = new Date(options.expires);
      if (Number.isNaN(expiresAt.getTime())) throw new CliError('--expires es una fecha y hora, como 2027-01-31T23:59:59Z (UTC) o 2027-01-31T17:59:59-06:00 (Guatemala)');
    }
    const created = unwrap(await createToken(CLI_ACTOR, integration.id, { label: typeof options.label === 'string' ? options.label : '', expiresAt }));
    return {
      data: { ...created.view, token: created.token },
      text: `${describeToken(created.view)}\n\n${TOKEN_SHOWN_ONCE}\n  ${created.token}`,
    };
  },

  async 'integrations:rotate-token'(args, options) {
    const integration = await integrationByArg(args);
    const tokenId = options.token === undefined ? undefined : tokenIdArg(options.token, '--token');
    const rotated = unwrap(await rotateToken(CLI_ACTOR, integration.id, { tokenId, overlap: overlapOption(options.overlap) }));
    return {
      data: { ...rotated.integration, token: rotated.token, tokenId: rotated.tokenView.id, tokenPrefix: rotated.tokenView.tokenPrefix, replaced: rotated.replaced },
      text: `${describeIntegration(rotated.integration)}\n${describeToken(rotated.replaced)}\n${describeToken(rotated.tokenView)}\n\nNuevo ${TOKEN_SHOWN_ONCE.charAt(0).toLowerCase()}${TOKEN_SHOWN_ONCE.slice(1)}\n  ${rotated.token}`,
    };
  },

  async 'integrations:token-revoke'(args) {
    const integration = await integrationByArg(args);
    const revoked = unwrap(await revokeToken(CLI_ACTOR, integration.id, tokenIdArg(args[1], 'el segundo argumento')));
    return { data: revoked, text: describeToken(revoked) };
  },

  async 'integrations:allowed-ips'(args, options) {
    const integration = await integrationByArg(args);
    if (options.set !== undefined && options.anywhere === true) throw new CliError('use --set o --anywhere, no ambas');
    let current = integration;
    if (options.anywhere === true) current = unwrap(await setAllowedNetworks(CLI_ACTOR, integration.id, []));
    else if (options.set !== undefined) {
      if (typeof options.set !== 'string' || options.set.trim() === '') throw new CliError('--set necesita las direcciones; para permitir cualquier dirección, use --anywhere');
      current = unwrap(await setAllowedNetworks(CLI_ACTOR, integration.id, options.set));
    }
    const refused = await latestRefusedAddresses(integration.id);
    return {
      data: { allowedNetworks: current.allowedNetworks, refused },
      text: [
        describeIntegration(current),
        '  últimas direcciones rechazadas:',
        ...(refused.length
          ? refused.map((entry) => `    ${safe(entry.address)}  ${when(entry.lastRefusedAt)}  ${counted(entry.refusals, 'rechazo', 'rechazos')}`)
          : ['    (ninguna)']),
      ].join('\n'),
    };
  },

  async 'integrations:purpose'(args, options) {
    const integration = await integrationByArg(args);
    if (options.set === undefined) return { data: { purpose: integration.purpose }, text: describeIntegration(integration) };
    if (typeof options.set !== 'string') throw new CliError('--set necesita la finalidad, entre comillas');
    const updated = unwrap(await setPurpose(CLI_ACTOR, integration.id, options.set));
    return { data: updated, text: describeIntegration(updated) };
  },

  async 'integrations:details'(args, options) {
    const integration = await integrationByArg(args);
    if (options['legal-name'] !== undefined || options.nit !== undefined) {
      throw new CliError(DETAILS_FROM_BILLING_PROFILE);
    }
    const given: IntegrationDetailsInput = {};
    for (const [option, field] of Object.entries(DETAIL_OPTIONS)) {
      const value = options[option];
      if (value === undefined) continue;
      if (typeof value !== 'string') throw new CliError(`--${option} necesita un valor (o "" para quitarlo)`);
      given[field] = value;
    }
    if (Object.keys(given).length === 0) return { data: { ...billingIdentityOf(integration), ...detailsOf(integration) }, text: describeDetails(integration) };
    const result = await setIntegrationDetails(CLI_ACTOR, integration.id, given);
    if (!result.ok) throw new CliError(safe(result.error.message), result.error.code === 'not_found' ? 3 : 2);
    const { integration: updated, changed } = result.value;
    return {
      data: { ...billingIdentityOf(updated), ...detailsOf(updated), changed },
      text: `${describeDetails(updated)}
${changed ? 'Datos guardados.' : 'Sin cambios: los datos ya eran esos.'}`,
    };
  },

  async 'integrations:deactivate'(args) {
    const updated = unwrap(await setActive(CLI_ACTOR, (await integrationByArg(args)).id, false));
    return { data: updated, text: describeIntegration(updated) };
  },

  async 'integrations:reactivate'(args) {
    const updated = unwrap(await setActive(CLI_ACTOR, (await integrationByArg(args)).id, true));
    return { data: updated, text: describeIntegration(updated) };
  },

  async 'users:create'(args, options) {
    if (options.password !== undefined) {
      throw new CliError('no se acepta --password: una contraseña en la línea de órdenes queda en el historial de la terminal y en la lista de procesos. Use --password-stdin.');
    }
    const role = userRoleSchema.safeParse(options.role);
    if (!role.success) throw new CliError('--role es admin (administrador) o support (soporte)');
    const chosenPassword = options['password-stdin'] === true ? await readPassword() : undefined;
    const created = unwrap(
      await createConsoleUser(CLI_ACTOR, {
        email: required(args, 0, 'el correo del usuario'),
        name: typeof options.name === 'string' ? options.name : '',
        role: role.data,
        password: chosenPassword,
      }),
    );
    const shownPassword = chosenPassword === undefined ? created.password : undefined;
    return {
      data: { ...created.user, ...(shownPassword ? { password: shownPassword } : {}) },
      text:
        `Usuario #${created.user.id} ${safe(created.user.email)} (${ROLE_LABELS[created.user.role]})` +
        `${shownPassword ? `\nContraseña (se muestra una sola vez): ${shownPassword}` : ''}` +
        '\nAl entrar por primera vez, la consola pide al usuario que elija su propia contraseña.',
    };
  },

  async 'users:list'() {
    const [users, enrolled] = await Promise.all([listConsoleUsers(), usersWithTwoFactor()]);
    return {
      data: users.map((user) => ({ ...user, twoFactor: enrolled.has(user.id) })),
      text: users.map((user) => describeUser(user, enrolled.has(user.id))).join('\n') || 'No hay usuarios.',
    };
  },

  async 'users:reset-two-factor'(args) {
    const email = required(args, 0, 'el correo del usuario');
    const user = await findConsoleUserByEmail(email.trim().toLowerCase());
    if (!user) throw new CliError(`no hay un usuario de la consola con el correo ${safe(email)}`, 3);
    const reset = unwrap(await resetTwoFactor(CLI_ACTOR, user.id));
    return {
      data: { userId: user.id, sessionsEnded: reset.sessionsEnded },
      text:
        `Se quitó la verificación en dos pasos de ${safe(user.email)}; ${counted(reset.sessionsEnded, 'sesión terminada', 'sesiones terminadas')}. ` +
        `Al volver a entrar se inscribe de nuevo${user.role === 'admin' ? ' (obligatorio para administradores en producción)' : ''}.`,
    };
  },

  async 'top-ups:list'(_args, options) {
    const integrationId = options.integration === undefined ? undefined : (await integrationByArg([String(options.integration)])).id;
    // Every page: an operator's list is whole (pending ones oldest first, an integration's newest first).
    const requests: TopUpRequestView[] = [];
    for (let after: string | undefined, page: TopUpRequestPage; ; after = page.next) {
      page = integrationId === undefined ? await pendingTopUpPage(after) : await integrationTopUpPage(integrationId, after);
      requests.push(...page.rows);
      if (!page.next) break;
    }
    if (requests.length === 0) return { data: [], text: options.integration === undefined ? 'No hay recargas pendientes de revisión.' : 'Esa integración no ha reportado depósitos.' };
    return { data: requests.map(({ id, integrationId, integrationName, bank, reference, depositDate, amountCentavos, state, reason, createdAt }) => ({ id, integrationId, integrationName, bank, reference, depositDate, amountCentavos, state, reason, createdAt })), text: requests.map(describeTopUpRequest).join('\n') };
  },

  async 'invoices:list'(_args, options) {
    const integrationId = typeof options.integration === 'string' ? (await integrationByArg([options.integration])).id : undefined;
    const state = typeof options.estado === 'string' ? options.estado : undefined;
    if (state !== undefined && !(INVOICE_STATES as string[]).includes(state)) {
      throw new CliError(`--estado admite ${INVOICE_STATES.join(', ')} (se recibió «${safe(state)}»)`, 2);
    }
    const limit = typeof options.limit === 'string' ? Number(options.limit) : 50;
    if (!Number.isInteger(limit) || limit < 1 || limit > 1_000) throw new CliError('--limit es un número entero de 1 a 1000', 2);
    const listed = await listInvoices({ integrationId, state: state as InvoiceState | undefined, limit });
    if (listed.length === 0) return { data: [], text: 'No hay facturas con esos filtros.' };
    return { data: listed.map(invoiceData), text: listed.map(describeInvoice).join('\n') };
  },

  async 'invoices:show'(args) {
    const typed = required(args, 0, 'el número de la factura (invoices:list los muestra)');
    const id = /^[1-9]\d{0,9}$/.test(typed) ? Number(typed) : NaN;
    const found = Number.isSafeInteger(id) ? await showInvoice(id) : undefined;
    if (!found) throw new CliError(`no existe la factura «${safe(typed)}»`);
    return { data: invoiceData(found), text: describeInvoice(found) };
  },

  async 'invoices:correct'(args, options) {
    // «Corregir receptor» from a terminal: the same request as the console's, written once.
    const typed = required(args, 0, 'el número de la factura (invoices:list los muestra)');
    const id = /^[1-9]\d{0,9}$/.test(typed) ? Number(typed) : NaN;
    if (!Number.isSafeInteger(id)) throw new CliError(`no existe la factura «${safe(typed)}»`);
    if (typeof options.motivo !== 'string' || options.motivo.trim() === '') {
      throw new CliError('falta el motivo: agregue --motivo "NIT equivocado", por ejemplo (lo recibe SAT con la anulación o la nota de crédito)');
    }
    const { reversal, created } = unwrap(await requestReceptorCorrection(CLI_ACTOR, id, options.motivo));
    const receptor = receptorText({ receptorKind: reversal.correctionReceptorKind!, receptorId: reversal.correctionReceptorId!, receptorName: reversal.correctionReceptorName });
    return {
      data: { invoiceId: id, created, reversalId: reversal.id, kind: reversal.kind, state: reversal.state, receptorKind: reversal.correctionReceptorKind, replacementInvoiceId: reversal.replacementInvoiceId },
      text: created ? REVERSAL_MESSAGES.correctionRequested(reversal.kind, receptor) : REVERSAL_MESSAGES.correctionAlreadyRequested,
    };
  },

  async 'top-ups:duplicates'() {
    // Reports that are one deposit under the letters-and-digits rule but were taken apart before it.
    const groups = await referenceDuplicates();
    const data = groups.map(({ bank, key, requests }) => ({
      bank,
      bankName: bankName(bank),
      key,
      requests: requests.map(({ id, integrationId, integrationName, reference, state, amountCentavos, depositDate, createdAt }) => ({ id, integrationId, integrationName, reference, state, amountCentavos, depositDate, createdAt })),
    }));
    if (groups.length === 0) return { data, text: 'Ninguna solicitud de recarga comparte banco y referencia con otra.' };
    const text = [
      `${counted(groups.length, 'grupo', 'grupos')} de solicitudes de recarga ${groups.length === 1 ? 'comparte' : 'comparten'} banco y referencia (comparadas por sus letras y números):`,
      ...groups.flatMap(({ bank, key, requests }) => [`${bankName(bank)}, referencia ${safe(key)}: ${counted(requests.length, 'solicitud', 'solicitudes')}`, ...requests.map((request) => `  ${describeTopUpRequest(request)}`)]),
      'Un depósito se acredita una sola vez: compare cada grupo con el estado de cuenta del banco, rechace las que sobren (top-ups:reject, con el motivo) y, si se acreditó dos veces, corrija el saldo con integrations:adjust.',
    ].join('\n');
    return { data, text, exitCode: 1 };
  },

  async 'top-ups:approve'(args) {
    const approved = unwrap(await approveTopUpRequest(CLI_ACTOR, topUpRequestId(args)));
    return {
      data: { id: approved.request.id, state: approved.request.state, ledgerEntryId: approved.request.ledgerEntryId, balanceCentavos: approved.balanceCentavos },
      text: `Solicitud #${approved.request.id} aprobada: ${formatQuetzales(approved.request.amountCentavos)} acreditados. Saldo de la integración: ${formatQuetzales(approved.balanceCentavos)}.`,
    };
  },

  async 'top-ups:reject'(args, options) {
    const requestId = topUpRequestId(args);
    if (typeof options.motivo !== 'string' || options.motivo.trim() === '') {
      throw new CliError('falta el motivo del rechazo: agregue --motivo "el depósito no aparece en el banco", por ejemplo (la integración lo leerá)');
    }
    const rejected = unwrap(await rejectTopUpRequest(CLI_ACTOR, requestId, options.motivo));
    return { data: { id: rejected.id, state: rejected.state, reason: rejected.reason }, text: `Solicitud #${rejected.id} rechazada; la integración verá el motivo. El saldo no cambió.` };
  },

  async 'portal:invite'(_args, options) {
    if (typeof options.integration !== 'string') throw new CliError('falta --integration (el id o el nombre de la integración)');
    if (typeof options.email !== 'string') throw new CliError('falta --email (el correo de la persona)');
    const role = options.role ?? 'propietario';
    if (!isPortalRole(role)) throw new CliError(`--role es ${alternatives([...PORTAL_ROLES])}; se recibió «${safe(String(role))}»`);
    const handOver = options.link === true ? { reason: handOverReason(options) } : undefined;
    const integration = await integrationByArg([options.integration]);
    // The link is this command's answer: development without an SMTP server (the operator is the
    // developer), or --link (the operator hands it over, the reason audited).
    let link: string | undefined;
    const result = await invitePortalUser(
      { kind: 'staff', actor: CLI_ACTOR, integrationId: integration.id },
      { email: options.email, role },
      { printer: (_line, printed) => (link = printed), handOver },
    );
    if (!result.ok && result.error.code === 'no_mail') throw new CliError(`${safe(result.error.message)}\n${HAND_OVER_HINT}`);
    const sent = unwrap(result);
    return {
      data: { id: sent.id, integration: sent.integrationName, email: sent.email, role: sent.role, expiresAt: sent.expiresAt, delivery: sent.delivery, ...(link ? { link } : {}) },
      text:
        `Invitación al portal para ${safe(sent.email)} como ${PORTAL_ROLE_LABELS[sent.role].toLowerCase()} de «${safe(sent.integrationName)}»; vence el ${when(sent.expiresAt)}.\n` +
        (sent.delivery === 'email'
          ? 'Se envió por correo (ALERT_SMTP_HOST).'
          : sent.delivery === 'handed_over'
            ? `No se envió correo: entregue este enlace a esa persona por un medio seguro; sirve una sola vez. La auditoría guarda quién, cuándo y el motivo, no el enlace:\n${link ?? ''}`
            : `Sin servidor de correo (entorno de desarrollo), este es el enlace; sirve una sola vez:\n${link ?? ''}`),
    };
  },

  async 'portal:reset-password'(args, options) {
    const email = required(args, 0, 'el correo de la persona');
    if (options.link !== true) throw new CliError('portal:reset-password entrega el enlace sin correo: agregue --link --reason "quién lo pidió y por qué" (por correo, la persona lo pide en «¿Olvidó su contraseña?»)');
    const reset = unwrap(await handOverPortalPasswordReset(CLI_ACTOR, email, handOverReason(options)));
    return {
      data: { userId: reset.userId, integration: reset.integrationName, email: reset.email, expiresAt: reset.expiresAt, link: reset.link },
      text:
        `Enlace para restablecer la contraseña del portal de ${safe(reset.email)} («${safe(reset.integrationName)}»); vence el ${when(reset.expiresAt)}.\n` +
        `No se envió correo: entregue este enlace a esa persona por un medio seguro; sirve una sola vez. La auditoría guarda quién, cuándo y el motivo, no el enlace:\n${reset.link}`,
    };
  },

  async 'portal:reset-two-factor'(args) {
    const email = required(args, 0, 'el correo de la persona');
    const account = await findPortalAccountByEmail(email);
    if (!account) throw new CliError(`no hay una cuenta del portal con el correo ${safe(email)}`, 3);
    const reset = unwrap(await portalTwoFactorService.resetTwoFactor(CLI_ACTOR, account.id));
    return {
      data: { userId: account.id, integration: account.integrationName, sessionsEnded: reset.sessionsEnded },
      text:
        `Se quitó la verificación en dos pasos del portal de ${safe(account.email)} («${safe(account.integrationName)}»); ` +
        `${counted(reset.sessionsEnded, 'sesión terminada', 'sesiones terminadas')}. Al volver a entrar la activa de nuevo si su rol la exige.`,
    };
  },

  async 'records:list'(_args, options) {
    let integrationId: number | undefined;
    if (typeof options.integration === 'string') integrationId = (await integrationByArg([options.integration])).id;
    let lookup: LookupKind | undefined;
    if (typeof options.lookup === 'string') {
      lookup = namedValue(options.lookup, LOOKUP_LABELS);
      if (!lookup) throw new CliError(`--lookup admite ${acceptedNames(LOOKUP_LABELS)}; se recibió «${safe(options.lookup)}»`);
    }
    const limit = typeof options.limit === 'string' ? Number(options.limit) : 20;
    if (!Number.isInteger(limit) || limit < 1) throw new CliError('--limit es un número entero mayor que cero');
    const identifier = typeof options.identifier === 'string' ? options.identifier : undefined;
    // NIT and CUI in full, and a search by one, only with a reason, logged in "Accesos a datos
    // personales" as the console's full export is; otherwise masked.
    let reason: string | undefined;
    if (options.motivo !== undefined) {
      const parsed = accessReasonSchema.safeParse(typeof options.motivo === 'string' ? options.motivo : '');
      if (!parsed.success) throw new CliError(`--motivo: ${parsed.error.issues[0]!.message}`);
      reason = parsed.data;
    }
    if (identifier !== undefined && reason === undefined) {
      throw new CliError('--identifier busca los datos de una persona: agregue --motivo "ticket o razón"; el acceso queda registrado en Accesos a datos personales');
    }
    let requestId: string | undefined;
    if (typeof options['request-id'] === 'string') {
      requestId = typedRequestId(options['request-id']);
      if (!requestId || !isPlausibleRequestId(requestId)) {
        throw new CliError(`--request-id es un id de solicitud, como req_5f0c3a9d2b7e41c8a6f1 (se recibió «${safe(options['request-id'])}»)`);
      }
    }
    const filters = { integracion: integrationId, consulta: lookup, identificador: identifier, solicitud: requestId };
    // Logged before anything is printed: a listing that cannot be logged is not shown.
    const accessId = reason === undefined ? undefined : await writeAccessEntry({ actor: describeActor(CLI_ACTOR), kind: 'export', reason, details: { via: 'cli', ...exportFiltersForLog(filters) } });
    const found = await listLatestRecords(filters, limit);
    if (accessId !== undefined) await completeAccessEntry(accessId, { rows: found.length });
    const records = reason === undefined ? found.map((record) => maskedIdentifiers(record)) : found;
    const text = records
      .map(
        (record) =>
          `${when(record.createdAt)}  ${safe(record.integrationNombre)}  ${LOOKUP_LABELS[record.lookup].padEnd(LOOKUP_COLUMN)} ${record.httpStatus}  ${String(record.responseTimeMs).padStart(5)} ms  ${formatQuetzales(record.chargedCentavos)}  nit=${safe(record.nit ?? '-')} cui=${safe(record.cui ?? '-')}  ${safe(record.requestId)}`,
      )
      .join('\n');
    // A request id with no record: its trace (a refusal, an answer the service could not serve, or a
    // replay and the request it repeated) says what happened, as the console's search does
    // (lib/core/request-traces).
    const trace = requestId && records.length === 0 ? await requestTrace(requestId) : undefined;
    const none = trace
      ? `Ninguna consulta registrada tiene ese id: ${describeRequestTrace(trace)}.`
      : requestId
        ? `Ninguna consulta ni rechazo tiene el id de solicitud ${requestId}: no se envió a este servicio, es de hace más de ${requestTraceSettings().REQUEST_TRACE_RETENTION_DAYS} días o de hace unos segundos (vuelva a buscarla), o llegó con más de ${requestTraceSettings().REQUEST_TRACE_MAX_PER_MINUTE} por minuto a una instancia y quedó sin detalle. No se cobró: todo cobro tiene su consulta registrada. ${untracedAnswersText(env().REQUEST_RECEIVE_TIMEOUT_MS)}`
        : 'No hay consultas registradas.';
    return { data: records, text: text || none };
  },

  async 'integrations:history'(args, options) {
    const integration = await integrationByArg(args);
    // Checked here first: the shared filters' messages speak of the console's form fields, not of these options.
    const kind = typeof options.kind === 'string' ? namedValue(options.kind, HISTORY_KIND_LABELS) : undefined;
    if (typeof options.kind === 'string' && !kind) {
      throw new CliError(`--kind admite ${acceptedNames(HISTORY_KIND_LABELS, lowercaseFirst)}; se recibió «${safe(options.kind)}»`);
    }
    for (const name of ['since', 'until'] as const) {
      const value = options[name];
      if (typeof value === 'string' && !isCalendarDay(value)) throw new CliError(`--${name} es una fecha AAAA-MM-DD, como 2026-11-01 (se recibió «${safe(value)}»)`);
    }
    const { filters, problems } = parseHistoryFilters({
      tipo: kind,
      desde: typeof options.since === 'string' ? options.since : undefined,
      hasta: typeof options.until === 'string' ? options.until : undefined,
    });
    if (problems.length > 0) throw new CliError(`filtro no válido: ${problems.join(' ')}`);
    const limit = typeof options.limit === 'string' ? Number(options.limit) : 50;
    if (!Number.isInteger(limit) || limit < 1 || limit > 1_000) throw new CliError('--limit es un número entero de 1 a 1000');
    const [page, held] = await Promise.all([listHistoryPage(integration.id, filters, {}, limit), heldInFlight(integration.id)]);
    const inFlight = held.holds > 0 ? `\n  en curso: ${counted(held.holds, 'reserva', 'reservas')}, ${formatQuetzales(held.centavos)} reservados` : '';
    return {
      data: { integration: integration.nombre, balanceCentavos: integration.balanceCentavos, inFlight: held, rows: page.rows },
      text: `${safe(integration.nombre)}  saldo ${formatQuetzales(integration.balanceCentavos)}${inFlight}\n${page.rows.map(historyLine).join('\n') || '  (sin movimientos)'}`,
    };
  },

  async 'statements:create'(args, options) {
    const integration = await integrationByArg(args);
    const month = required(args, 1, 'el mes (AAAA-MM)');
    const statement = unwrap(await issueStatement(CLI_ACTOR, integration.id, month));
    const files: string[] = [];
    if (typeof options.out === 'string') {
      const directory = path.resolve(options.out);
      fs.mkdirSync(directory, { recursive: true });
      const pdf = path.join(directory, `estado-de-cuenta-${integration.nombre}-${month}.pdf`);
      fs.writeFileSync(pdf, await renderStatementPdf(statement, env().SERVICE_NAME, await statementInvoices(statement)));
      const csv = path.join(directory, `consultas-cobradas-${integration.nombre}-${month}.csv`);
      await pipeline(Readable.fromWeb(statementChargesCsvStream(integration.id, month, () => {}) as never), fs.createWriteStream(csv));
      files.push(pdf, csv);
    }
    const { figures } = statement;
    return {
      data: { ...statement, files },
      text: [
        `Estado de cuenta n.º ${statement.number} de ${safe(integration.nombre)}, ${month} (emitido el ${when(statement.createdAt)})`,
        `  saldo inicial ${formatQuetzales(figures.openingBalanceCentavos)}  recargas ${formatQuetzales(figures.topUps.totalCentavos)} (${count(figures.topUps.count)})` +
          `  ajustes ${formatQuetzales(figures.adjustments.totalCentavos)} (${count(figures.adjustments.count)})` +
          `  consultas cobradas ${formatQuetzales(-figures.charges.totalCentavos)} (${count(figures.charges.count)})  saldo final ${formatQuetzales(figures.closingBalanceCentavos)}`,
        ...figures.charges.lines.map(
          (line) => `    ${LOOKUP_LABELS[line.lookup].padEnd(LOOKUP_COLUMN)} a ${formatQuetzales(line.tariffCentavos)}: ${count(line.count)} = ${formatQuetzales(line.amountCentavos)}`,
        ),
        ...files.map((file) => `  escrito: ${file}`),
      ].join('\n'),
    };
  },

  async 'ledger:verify'(_args, options) {
    const integrationId = typeof options.integration === 'string' ? (await integrationByArg([options.integration])).id : undefined;
    const run = await verifyLedger({ integrationId, trigger: 'cli', sweepAfterSeconds: balanceSettings().HOLD_SWEEP_AFTER_SECONDS });
    // Differences are the answer, not a failure to give one: printed on stdout (and as --json) with exit code 1.
    return { data: run, text: await verificationReport(run), exitCode: run.ok ? 0 : 1 };
  },

  async 'books:verify'(_args, options) {
    const integrationId = typeof options.integration === 'string' ? (await integrationByArg([options.integration])).id : undefined;
    const month = typeof options.mes === 'string' ? options.mes : undefined;
    if (month !== undefined && !/^\d{4}-(0[1-9]|1[0-2])$/.test(month)) throw new CliError(`--mes se escribe AAAA-MM, como 2026-11 (se recibió «${safe(month)}»)`, 2);
    const handle = await database();
    const months = await booksByMonth(handle, { integrationId, month });
    const findings = await booksFindings(handle, integrationId);
    // Findings are the answer, not a failure to give one: printed on stdout (and as --json) with exit code 1.
    return { data: { months, findings }, text: await booksReport(months, findings), exitCode: findings.length === 0 ? 0 : 1 };
  },

  async 'personal-data:reseal'(_args, options) {
    const whole = (name: string, fallback: number, min: number) => {
      const value = typeof options[name] === 'string' ? Number(options[name]) : fallback;
      if (!Number.isInteger(value) || value < min || value > 50_000) throw new CliError(`--${name} es un número entero de ${min} a 50000`);
      return value;
    };
    const batchRows = whole('batch', 2_000, 1);
    const pauseMs = whole('pause-ms', 0, 0);
    const startedAt = Date.now();
    let lastReport = startedAt;
    const result = await resealRecords({
      batchRows,
      pauseMs,
      restart: options.restart === true,
      // Progress on stderr every 10 s (stdout is the result, --json included).
      onBatch: (progress) => {
        if (Date.now() - lastReport < 10_000) return;
        lastReport = Date.now();
        process.stderr.write(`… ${counted(progress.scanned, 'registro leído', 'registros leídos')}, ${count(progress.resealed)} vueltos a cifrar, hasta el id ${progress.afterId}\n`);
      },
      onTableBatch: (table, resealed) => {
        if (Date.now() - lastReport < 10_000) return;
        lastReport = Date.now();
        process.stderr.write(`… ${table}: ${count(resealed)} vueltos a cifrar\n`);
      },
    });
    const seconds = ((Date.now() - startedAt) / 1000).toFixed(1);
    const { tables } = result;
    return {
      data: result,
      text:
        `${result.resumedAfterId > 0 ? `Siguió después del registro ${result.resumedAfterId}. ` : ''}` +
        `Leyó ${counted(result.scanned, 'registro de consulta', 'registros de consultas')} y volvió a cifrar ${count(result.resealed)}, en ${seconds} s. ` +
        `Volvió a cifrar también ${counted(result.identifierLinks, 'vínculo NIT-CUI', 'vínculos NIT-CUI')}, ` +
        `${counted(tables.bulk_job_items, 'ítem de lotes', 'ítems de lotes')}, ${counted(tables.watch_list_entries, 'NIT de listas de vigilancia', 'NIT de listas de vigilancia')}, ` +
        `${counted(tables.watch_list_changes, 'cambio de vigilancia', 'cambios de vigilancia')} ` +
        `y ${counted(tables.integrations, 'secreto de webhook', 'secretos de webhook')}. ` +
        `Los registros, esos vínculos, los lotes, las listas de vigilancia y los secretos de webhook están ahora bajo la clave de cifrado ${result.encryptionKeyId} y la de búsqueda ${result.searchKeyId}: ` +
        'ya puede vaciar PERSONAL_DATA_PREVIOUS_SEARCH_KEYS, y PERSONAL_DATA_PREVIOUS_KEYS 24 horas después de reiniciar con la clave nueva ' +
        '(las respuestas guardadas por Idempotency-Key no se vuelven a cifrar: caducan en 24 horas).',
    };
  },

  async 'records:partition'(_args, options) {
    const batchRows = typeof options.batch === 'string' ? Number(options.batch) : 20_000;
    const pauseMs = typeof options['pause-ms'] === 'string' ? Number(options['pause-ms']) : 20;
    if (!Number.isInteger(batchRows) || batchRows < 1) throw new CliError('--batch es un número entero mayor que cero');
    if (!Number.isInteger(pauseMs) || pauseMs < 0) throw new CliError('--pause-ms es un número entero de milisegundos');
    const result = await partitionRecordsOnline({ batchRows, pauseMs });
    if (result.kind === 'already_partitioned') return { data: result, text: 'Los registros de consultas ya están particionados por mes: nada que hacer.' };
    if (result.kind === 'lock_not_taken') {
      throw new CliError(`no se pudo cambiar las tablas en ${result.attempts} intentos (una consulta larga las ocupaba); vuelva a ejecutarlo: lo copiado se conserva`);
    }
    const seconds = (ms: number) => (ms / 1000).toFixed(1);
    return {
      data: result,
      text:
        `Registros de consultas particionados por mes en ${seconds(result.totalMs)} s: copia ${seconds(result.copyMs)} s en ${result.batches} lotes, ` +
        `estadísticas ${seconds(result.analyzeMs)} s, cambio de tablas ${result.switchMs.toFixed(0)} ms (el único bloqueo de las consultas).`,
    };
  },

  async 'records:purge'(_args, options) {
    const exportDir = typeof options['export-dir'] === 'string' ? options['export-dir'] : recordRetentionSettings().QUERY_RECORD_RETENTION_EXPORT_DIR;
    const result = await purgeExpiredRecords({ exportDir });
    return {
      data: {
        cutoff: result.cutoff.toISOString(),
        keptFrom: result.keptFrom.toISOString(),
        purged: result.purged,
        monthsDropped: result.monthsDropped.map((month) => month.toISOString().slice(0, 7)),
        exportFile: result.exportFile ?? null,
        alertDeliveriesPurged: result.alertDeliveriesPurged,
      },
      text:
        `Se borraron ${counted(result.purged, 'registro de consulta', 'registros de consultas')} anteriores a ${when(result.keptFrom)} ` +
        `y ${counted(result.alertDeliveriesPurged, 'envío de alertas', 'envíos de alertas')} anteriores a ${when(result.cutoff)}${result.exportFile ? `; los registros quedaron archivados en ${result.exportFile}` : ''}.`,
    };
  },
};

/** "Libro mayor verificado: 200 integraciones, 202,482 movimientos, sin diferencias (3.1 s)." or the differences, one a line. */
async function verificationReport(run: CompletedVerification): Promise<string> {
  const seconds = ((run.finishedAt.getTime() - run.startedAt.getTime()) / 1000).toFixed(1);
  const checked = `Libro mayor verificado: ${counted(run.integrationsChecked, 'integración', 'integraciones')}, ${counted(run.entriesChecked, 'movimiento', 'movimientos')}`;
  const differences = run.differences as LedgerDifference[];
  if (differences.length === 0) return `${checked}, sin diferencias (${seconds} s).`;
  const names = new Map<number, string>();
  for (const id of new Set(differences.map((difference) => difference.integrationId))) {
    names.set(id, (await findIntegration(id))?.nombre ?? '');
  }
  return [
    `${checked}, ${counted(differences.length, 'diferencia', 'diferencias')} (${seconds} s):`,
    ...differences.map((difference) => {
      const name = names.get(difference.integrationId) ? ` «${safe(names.get(difference.integrationId))}»` : '';
      const what = LEDGER_DIFFERENCE_LABELS[difference.kind] ?? difference.kind;
      const sample = difference.sample.length > 0 ? `; para empezar a revisar: ${difference.sample.join(', ')}` : '';
      return `  Integración #${difference.integrationId}${name}: ${what} (${difference.detail})${difference.count > 1 ? ` ×${count(difference.count)}` : ''}${sample}`;
    }),
  ].join('\n');
}

/** An invoice as --json gives it: its row without the certified XML, and its documents. */
function invoiceData({ invoice, integrationName, documents }: ListedInvoice) {
  const withoutInternals = <T extends { certifiedXml: unknown; leaseHolder: unknown; leaseUntil: unknown }>(row: T) =>
    Object.fromEntries(Object.entries(row).filter(([key]) => !['certifiedXml', 'leaseHolder', 'leaseUntil'].includes(key)));
  return { ...withoutInternals(invoice), integrationName, documents: documents.map(withoutInternals) };
}

/** An invoice in a few lines, in words: numbers, state, receptor, amounts and its documents. */
function describeInvoice({ invoice, integrationName, documents }: ListedInvoice): string {
  const standing = invoiceStanding(invoice);
  const numbers = invoice.serie && invoice.numero ? `${invoice.serie}-${invoice.numero} UUID ${invoice.uuid}` : 'sin número todavía';
  const lines = [
    `Factura #${invoice.id} «${safe(integrationName)}» ${invoice.documentType} ${numbers}: ${INVOICE_STANDING_LABELS[standing]}, ${formatQuetzales(invoice.totalCentavos)}` +
      `, emitida el ${formatDateTime(invoice.emittedAt)}${invoice.certifiedAt ? `, certificada el ${formatDateTime(invoice.certifiedAt)}` : ''}; receptor ${safe(receptorText(invoice))}; recarga #${invoice.ledgerEntryId}`,
  ];
  if (invoice.state === 'to_correct' && invoice.lastErrorMessage) lines.push(`  El certificador dijo: ${safe(invoice.lastErrorMessage)}`);
  for (const document of documents) {
    const kind = document.kind === 'void' ? 'Anulación' : 'Nota de crédito';
    const noteNumbers = document.serie && document.numero ? ` ${document.serie}-${document.numero} UUID ${document.uuid}` : '';
    lines.push(`  ${kind} #${document.id}${noteNumbers}: ${REVERSAL_STATE_WORDS[document.state]}, ${formatQuetzales(document.amountCentavos)} (${safe(document.reason)})`);
  }
  return lines.join('\n');
}

const REVERSAL_STATE_WORDS: Record<InvoiceReversal['state'], string> = {
  pending: 'en trámite',
  indeterminate: 'en trámite (por confirmar con el certificador)',
  done: 'certificada',
  refused: 'rechazada (el monto volvió al saldo)',
  to_correct: 'por corregir',
};

async function booksReport(months: BooksMonth[], findings: BooksFinding[]): Promise<string> {
  const lines = months.map((row) => {
    const invoiced = `facturado ${formatQuetzales(row.invoicedCentavos)}${row.notInvoicedCentavos > 0 ? ` + sin factura (la facturación estaba apagada) ${formatQuetzales(row.notInvoicedCentavos)}` : ''}`;
    const waiting = [
      row.pending.queued > 0 ? `${count(row.pending.queued)} en cola del certificador` : '',
      row.pending.awaitingReceptor > 0 ? `${count(row.pending.awaitingReceptor)} esperan el NIT` : '',
      row.pending.toCorrect > 0 ? `${count(row.pending.toCorrect)} por corregir` : '',
    ].filter(Boolean);
    return (
      `  ${row.month} «${safe(row.integrationName)}»: recargas ${formatQuetzales(row.topUpsCentavos)} = ${invoiced}; certificado ${formatQuetzales(row.certifiedCentavos)}` +
      `${waiting.length > 0 ? ` (${waiting.join(', ')})` : ''}; anulado ${formatQuetzales(row.voidedCentavos)}; notas de crédito ${formatQuetzales(row.creditedBackCentavos)}`
    );
  });
  const names = new Map<number, string>();
  for (const id of new Set(findings.map((finding) => finding.integrationId))) names.set(id, (await findIntegration(id))?.nombre ?? '');
  const verdict =
    findings.length === 0
      ? 'Las cuentas cuadran: cada pago recibido está acreditado, cada recarga tiene su factura o el motivo de no tenerla, y cada reembolso su nota de crédito.'
      : [
          `Las cuentas no cuadran (${counted(findings.length, 'diferencia', 'diferencias')}):`,
          ...findings.map((finding) => {
            const name = names.get(finding.integrationId) ? ` «${safe(names.get(finding.integrationId))}»` : '';
            const sample = Array.isArray(finding.sample) && finding.sample.length > 0 ? `; para empezar a revisar: ${finding.sample.join(', ')}` : '';
            return `  Integración #${finding.integrationId}${name}: ${LEDGER_DIFFERENCE_LABELS[finding.kind]} (${finding.detail})${finding.count > 1 ? ` ×${count(finding.count)}` : ''}${sample}`;
          }),
        ].join('\n');
  return [months.length === 0 ? 'No hay recargas en ese período.' : 'Recargas y sus facturas, por mes (hora de Guatemala):', ...lines, verdict].join('\n');
}

export async function runCommand(command: string, args: string[], options: Options): Promise<CommandOutput> {
  const run = commands[command];
  if (!run) throw new CliError(`no existe el comando «${safe(command)}»\n\n${USAGE}`);
  return run(args, options);
}
