import type { LookupKind } from '@/db/schema';
import { lookupKind } from '@/db/schema';
import type { Actor } from '@/lib/audit/audit';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { heldInFlight, listHistoryPage, parseHistoryFilters, type HistoryRow } from '@/lib/billing/history';
import { verifyLedger, type LedgerDifference } from '@/lib/billing/verify';
import { statementChargesCsvStream } from '@/lib/statements/csv';
import { renderStatementPdf } from '@/lib/statements/pdf';
import { issueStatement } from '@/lib/statements/statements';
import { adjustBalance, topUp } from '@/lib/billing/ledger';
import { CONTRACT_FLAG_NAMES, FLAG_NAMES, parseFlagName, type FlagName, type IntegrationFlags } from '@/lib/integrations/flags';
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
} from '@/lib/integrations/service';
import { formatQuetzales, parseQuetzales } from '@/lib/money';
import { createToken, listTokens, revokeToken, type TokenView } from '@/lib/credentials/tokens';
import { latestRefusedAddresses } from '@/lib/credentials/refused-addresses';
import { OVERLAP_PRESET_NAMES, parseOverlapPreset, type OverlapPreset } from '@/lib/credentials/token-state';
import { listLatestRecords } from '@/lib/records/list';
import { formatNit, formatPhone, NOT_REGISTERED } from '@/lib/integration-details/display';
import { contactsOf, detailsOf, setIntegrationDetails, type IntegrationContact, type IntegrationDetailsInput } from '@/lib/integration-details/service';
import type { DetailField } from '@/lib/integration-details/schemas';
import { isPlausibleRequestId, typedRequestId } from '@/lib/request-ids/typed';
import { purgeExpiredRecords } from '@/lib/retention/purge';
import { resealRecords } from '@/lib/personal-data/reseal';
import type { Result } from '@/lib/result';
import { env } from '@/lib/env';
import { resetTwoFactor } from '@/lib/two-factor/service';
import { createConsoleUser, findConsoleUserByEmail, listConsoleUsers, userRoleSchema } from '@/lib/users/service';
import { CliError } from './errors';
import { readPassword } from './password-input';
import { terminalSafe as safe } from './terminal-text';

export { CliError };

export interface CommandOutput {
  text: string;
  data: unknown;
}

export type Options = Partial<Record<string, string | boolean>>;

const CLI_ACTOR: Actor = { kind: 'cli', name: process.env.USER };

export const USAGE = `Operator CLI: npm run cli -- <command> [arguments] [--json]

Amounts are quetzales ("12.50", "1,000"); they are stored as integer centavos.
Flags: is_renap_enabled is_rtu_enabled is_cui_nit_enabled is_rtu_v2_enabled is_omisos_enabled (or "all").

  integrations:create <nombre> [--tariff Q] [--balance Q] [--enable flag,flag|all]
                                        create an integration; prints its token once
  integrations:list                     list integrations with flags, tariff and balance
  integrations:show <id|nombre>         one integration and its latest balance movements
  integrations:history <id|nombre> [--kind top_up|adjustment|capture] [--since YYYY-MM-DD] [--until YYYY-MM-DD] [--limit N]
                                        balance movements, newest first, each with the balance after it
  statements:create <id|nombre> <YYYY-MM> [--out DIR]
                                        issue (or find, once issued) the month's statement; with --out,
                                        write its PDF and the CSV of its charged queries there
  ledger:verify [--integration id|nombre]
                                        reconcile balances, ledger and records; exits 1 on a difference
  integrations:flags <id|nombre> [--enable flag,...] [--disable flag,...]
  integrations:tariff <id|nombre> <Q>   set the tariff per catalog query
  integrations:top-up <id|nombre> <Q> --note "..."
  integrations:adjust <id|nombre> <+Q|-Q> --note "..."
                                        add (+10.00) to or take (-5.00) from the balance
  integrations:tokens <id|nombre>       its tokens: label, state, created, last use (up to a minute behind), expiry
  integrations:token-create <id|nombre> --label "..." [--expires YYYY-MM-DDTHH:MM:SSZ]
                                        a further token (printed once) beside the others
  integrations:rotate-token <id|nombre> [--token ID] [--overlap none|1h|24h|7d]
                                        replace a token (default: the newest active one) by a new one,
                                        printed once; the old one keeps working for the overlap
                                        (none: it stops at once)
  integrations:token-revoke <id|nombre> <token id>
                                        the token stops working at once on every instance
  integrations:allowed-ips <id|nombre> [--set "203.0.113.7, 198.51.100.0/24, 2001:db8::/32" | --anywhere]
                                        show or replace its IP allow-list (IPv4/IPv6 addresses and CIDR
                                        ranges); requests from elsewhere get the unknown-credentials answer
  integrations:purpose <id|nombre> [--set "..."]
                                        show or set its declared purpose of use (audited; shown on its
                                        console page and printed on its monthly statements)
  integrations:details <id|nombre> [--legal-name "..."] [--nit NIT]
               [--technical-name "..."] [--technical-email correo] [--technical-phone teléfono]
               [--billing-name "..."] [--billing-email correo] [--billing-phone teléfono]
                                        muestra o cambia la razón social, el NIT y los contactos técnico
                                        y de facturación (solo los dados; "" quita uno); queda en la auditoría
  integrations:deactivate <id|nombre>   refuse its credentials (reactivate to undo)
  integrations:reactivate <id|nombre>
  users:create <email> --name "..." --role admin|support [--password-stdin]
                                        create a console user; prints a generated password once,
                                        or asks for one (--password-stdin: typed at a prompt, or
                                        the first line of standard input when it is piped)
  users:list
  users:reset-two-factor <email>        remove a user's second factor (a lost phone and no recovery
                                        codes); their sessions end, and they enrol again at sign-in
  records:list [--integration id|nombre] [--lookup renap|rtu_nits|cui_nit|rtu|omisos] [--identifier NIT-or-CUI]
               [--request-id req_…] [--limit N]
                                        most recent query records first (a NIT or CUI in any writing,
                                        also inside /rtu/nits batches; --request-id: the one query with
                                        that x-request-id, none if the request was refused before a source)
  records:purge [--export-dir DIR]      deletes the query records older than QUERY_RECORD_RETENTION_MONTHS
                                        (as the daily job does), first archiving them as gzipped CSV in DIR,
                                        and the alert deliveries as old
  personal-data:reseal [--batch N] [--pause-ms MS] [--restart]
                                        bring every query record to the current PERSONAL_DATA_KEY and
                                        PERSONAL_DATA_SEARCH_KEY: encrypts records still in clear, re-encrypts
                                        and re-hashes those under a previous key; batches of N (2000) by id,
                                        each a short transaction, while the service runs; an interrupted
                                        run resumes where it stopped (--restart: from the first record)`;

function required(args: string[], index: number, what: string): string {
  const value = args[index];
  if (!value) throw new CliError(`missing ${what}\n\n${USAGE}`);
  return value;
}

/** The CLI's entry point rewrites "-25" to this mark plus "25" so the argument parser keeps it. */
export const NEGATIVE_AMOUNT_MARK = 'negative:';

function amount(text: string, what: string): number {
  const centavos = signedAmount(text);
  if (centavos === undefined) throw new CliError(`${what} must be an amount in quetzales, like 12.50 (got "${safe(text)}")`);
  return centavos;
}

function signedAmount(text: string): number | undefined {
  return text.startsWith(NEGATIVE_AMOUNT_MARK) ? negate(parseQuetzales(text.slice(NEGATIVE_AMOUNT_MARK.length))) : parseQuetzales(text);
}

function negate(value: number | undefined): number | undefined {
  return value === undefined ? undefined : -value;
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
    if (!flag) throw new CliError(`unknown flag "${safe(item)}"; use one of ${Object.values(CONTRACT_FLAG_NAMES).join(', ')}`);
    return flag;
  });
}

function historyLine(row: HistoryRow): string {
  const source = row.kind === 'capture' ? `query ${row.queryRecordId ?? '-'}` : `${safe(row.actor)}${row.note ? `  ${safe(row.note)}` : ''}`;
  return `  ${row.createdAt.toISOString()}  ${row.kind.padEnd(10)} ${formatQuetzales(row.amountCentavos).padStart(14)}  balance ${formatQuetzales(row.balanceAfterCentavos).padStart(14)}  ${source}`;
}

function describeIntegration(integration: IntegrationView): string {
  const enabled = FLAG_NAMES.filter((flag) => integration[flag]).map((flag) => CONTRACT_FLAG_NAMES[flag]);
  return [
    `#${integration.id} ${safe(integration.nombre)}${integration.active ? '' : ' (inactive)'}`,
    `  tariff ${formatQuetzales(integration.tariffCentavos)}  balance ${formatQuetzales(integration.balanceCentavos)}`,
    `  enabled: ${enabled.length ? enabled.join(' ') : '(none)'}`,
    `  allowed IPs: ${integration.allowedNetworks.length ? integration.allowedNetworks.join(' ') : 'anywhere'}`,
    `  purpose: ${integration.purpose ? safe(integration.purpose) : '(not declared)'}`,
  ].join('\n');
}

/** The integrations:details options and the detail each sets. */
export const DETAIL_OPTIONS: Record<string, DetailField> = {
  'legal-name': 'legalName',
  nit: 'nit',
  'technical-name': 'technicalContactName',
  'technical-email': 'technicalContactEmail',
  'technical-phone': 'technicalContactPhone',
  'billing-name': 'billingContactName',
  'billing-email': 'billingContactEmail',
  'billing-phone': 'billingContactPhone',
};

function describeDetails(integration: IntegrationView): string {
  const contact = (found: IntegrationContact | null) =>
    found ? [found.name ?? 'sin nombre', found.email, found.phone && formatPhone(found.phone)].filter(Boolean).map((part) => safe(part!)).join(' · ') : 'no registrado';
  const contacts = contactsOf(integration);
  return [
    `#${integration.id} ${safe(integration.nombre)}: datos de la integración`,
    `  Razón social: ${integration.legalName ? safe(integration.legalName) : NOT_REGISTERED.legalName}`,
    `  NIT: ${integration.nit ? formatNit(integration.nit) : NOT_REGISTERED.nit}`,
    `  Contacto técnico: ${contact(contacts.technical)}`,
    `  Contacto de facturación: ${contact(contacts.billing)}`,
  ].join('\n');
}

function describeToken(token: TokenView): string {
  const ends = token.revokedAt
    ? `revoked ${token.revokedAt.toISOString()}`
    : token.expiresAt
      ? `${token.state === 'expired' ? 'expired' : 'stops working'} ${token.expiresAt.toISOString()}`
      : 'no expiry';
  return `  token #${token.id} ${safe(token.tokenPrefix)}…  ${safe(token.label)}  ${token.state}  created ${token.createdAt.toISOString()}  last used ${token.lastUsedAt?.toISOString() ?? 'never'}  ${ends}`;
}

function overlapOption(value: string | boolean | undefined): OverlapPreset {
  if (value === undefined) return 'none';
  const preset = parseOverlapPreset(value);
  if (!preset) throw new CliError(`--overlap must be one of ${OVERLAP_PRESET_NAMES.join(', ')}`);
  return preset;
}

function tokenIdArg(value: string | boolean | undefined, what: string): number {
  if (typeof value !== 'string' || !/^\d+$/.test(value)) throw new CliError(`${what} must be a token id (integrations:tokens lists them)`);
  return Number(value);
}

async function integrationByArg(args: string[]): Promise<IntegrationView> {
  const key = required(args, 0, 'integration id or nombre');
  const integration = await findIntegration(key);
  if (!integration) throw new CliError(`no integration "${safe(key)}"`, 3);
  return integration;
}

const commands: Record<string, (args: string[], options: Options) => Promise<CommandOutput>> = {
  async 'integrations:create'(args, options) {
    const enabled = parseFlagList(options.enable);
    const flags = Object.fromEntries(enabled.map((flag) => [flag, true])) as Partial<IntegrationFlags>;
    const created = unwrap(
      await createIntegration(CLI_ACTOR, {
        nombre: required(args, 0, 'nombre'),
        tariffCentavos: typeof options.tariff === 'string' ? amount(options.tariff, '--tariff') : 0,
        initialBalanceCentavos: typeof options.balance === 'string' ? amount(options.balance, '--balance') : 0,
        flags,
        note: typeof options.note === 'string' ? options.note : undefined,
      }),
    );
    return {
      data: { ...created.integration, token: created.token, tokenId: created.tokenView.id, tokenPrefix: created.tokenView.tokenPrefix },
      text: `${describeIntegration(created.integration)}\n\nToken (shown once, store it now):\n  ${created.token}`,
    };
  },

  async 'integrations:list'() {
    const all = await listIntegrations();
    return { data: all, text: all.length ? all.map(describeIntegration).join('\n') : 'No integrations yet.' };
  },

  async 'integrations:show'(args) {
    const integration = await integrationByArg(args);
    const { rows: ledger } = await listHistoryPage(integration.id, {}, {}, 10);
    return {
      data: { ...integration, ledger },
      text: `${describeIntegration(integration)}\n  latest balance movements:\n${ledger.map(historyLine).join('\n') || '  (none)'}`,
    };
  },

  async 'integrations:flags'(args, options) {
    const integration = await integrationByArg(args);
    const changes: Partial<IntegrationFlags> = {};
    for (const flag of parseFlagList(options.enable)) changes[flag] = true;
    for (const flag of parseFlagList(options.disable)) changes[flag] = false;
    if (Object.keys(changes).length === 0) throw new CliError('say which flags to change with --enable and/or --disable');
    const updated = unwrap(await setFlags(CLI_ACTOR, integration.id, changes));
    return { data: updated, text: describeIntegration(updated) };
  },

  async 'integrations:tariff'(args) {
    const integration = await integrationByArg(args);
    const updated = unwrap(await setTariff(CLI_ACTOR, integration.id, amount(required(args, 1, 'tariff'), 'tariff')));
    return { data: updated, text: describeIntegration(updated) };
  },

  async 'integrations:top-up'(args, options) {
    const integration = await integrationByArg(args);
    const result = unwrap(
      await topUp(CLI_ACTOR, integration.id, amount(required(args, 1, 'amount'), 'amount'), String(options.note ?? '')),
    );
    return { data: result, text: `${safe(integration.nombre)}: balance ${formatQuetzales(result.balanceCentavos)}` };
  },

  // In Spanish, as the console and the ledger's own refusals are (the rest of the CLI is not yet).
  async 'integrations:adjust'(args, options) {
    const key = args[0];
    if (!key) throw new CliError(`falta la integración (su id o su nombre)\n\n${USAGE}`);
    const integration = await findIntegration(key);
    if (!integration) throw new CliError(`no existe la integración «${safe(key)}»`, 3);
    const typed = args[1];
    if (!typed) throw new CliError(`falta el monto del ajuste: +10.00 suma, -5.00 resta\n\n${USAGE}`);
    const centavos = signedAmount(typed);
    if (centavos === undefined) {
      const shown = typed.startsWith(NEGATIVE_AMOUNT_MARK) ? `-${typed.slice(NEGATIVE_AMOUNT_MARK.length)}` : typed;
      throw new CliError(`el monto del ajuste se escribe en quetzales con su signo, como +10.00 para sumar o -5.00 para restar (se recibió «${safe(shown)}»)`);
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
      if (Number.isNaN(expiresAt.getTime())) throw new CliError('--expires must be a date and time, like 2027-01-31T23:59:59Z');
    }
    const created = unwrap(await createToken(CLI_ACTOR, integration.id, { label: typeof options.label === 'string' ? options.label : '', expiresAt }));
    return {
      data: { ...created.view, token: created.token },
      text: `${describeToken(created.view)}\n\nToken (shown once, store it now):\n  ${created.token}`,
    };
  },

  async 'integrations:rotate-token'(args, options) {
    const integration = await integrationByArg(args);
    const tokenId = options.token === undefined ? undefined : tokenIdArg(options.token, '--token');
    const rotated = unwrap(await rotateToken(CLI_ACTOR, integration.id, { tokenId, overlap: overlapOption(options.overlap) }));
    return {
      data: { ...rotated.integration, token: rotated.token, tokenId: rotated.tokenView.id, tokenPrefix: rotated.tokenView.tokenPrefix, replaced: rotated.replaced },
      text: `${describeIntegration(rotated.integration)}\n${describeToken(rotated.replaced)}\n${describeToken(rotated.tokenView)}\n\nNew token (shown once, store it now):\n  ${rotated.token}`,
    };
  },

  async 'integrations:token-revoke'(args) {
    const integration = await integrationByArg(args);
    const revoked = unwrap(await revokeToken(CLI_ACTOR, integration.id, tokenIdArg(args[1], 'the second argument')));
    return { data: revoked, text: describeToken(revoked) };
  },

  async 'integrations:allowed-ips'(args, options) {
    const integration = await integrationByArg(args);
    if (options.set !== undefined && options.anywhere === true) throw new CliError('use either --set or --anywhere');
    let current = integration;
    if (options.anywhere === true) current = unwrap(await setAllowedNetworks(CLI_ACTOR, integration.id, []));
    else if (options.set !== undefined) {
      if (typeof options.set !== 'string' || options.set.trim() === '') throw new CliError('--set needs the addresses; use --anywhere to allow every address');
      current = unwrap(await setAllowedNetworks(CLI_ACTOR, integration.id, options.set));
    }
    const refused = await latestRefusedAddresses(integration.id);
    return {
      data: { allowedNetworks: current.allowedNetworks, refused },
      text: [
        describeIntegration(current),
        '  latest refused addresses:',
        ...(refused.length ? refused.map((entry) => `    ${safe(entry.address)}  ${entry.lastRefusedAt.toISOString()}  ${entry.refusals} refused`) : ['    (none)']),
      ].join('\n'),
    };
  },

  async 'integrations:purpose'(args, options) {
    const integration = await integrationByArg(args);
    if (options.set === undefined) return { data: { purpose: integration.purpose }, text: describeIntegration(integration) };
    if (typeof options.set !== 'string') throw new CliError('--set needs the purpose, in quotes');
    const updated = unwrap(await setPurpose(CLI_ACTOR, integration.id, options.set));
    return { data: updated, text: describeIntegration(updated) };
  },

  async 'integrations:details'(args, options) {
    const integration = await integrationByArg(args);
    const given: IntegrationDetailsInput = {};
    for (const [option, field] of Object.entries(DETAIL_OPTIONS)) {
      const value = options[option];
      if (value === undefined) continue;
      if (typeof value !== 'string') throw new CliError(`--${option} necesita un valor (o "" para quitarlo)`);
      given[field] = value;
    }
    if (Object.keys(given).length === 0) return { data: detailsOf(integration), text: describeDetails(integration) };
    const result = await setIntegrationDetails(CLI_ACTOR, integration.id, given);
    if (!result.ok) throw new CliError(safe(result.error.message), result.error.code === 'not_found' ? 3 : 2);
    const { integration: updated, changed } = result.value;
    return {
      data: { ...detailsOf(updated), changed },
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
      throw new CliError('--password is not accepted: a password on the command line ends up in the shell history and the process list. Use --password-stdin.');
    }
    const role = userRoleSchema.safeParse(options.role);
    if (!role.success) throw new CliError('--role must be admin or support');
    const chosenPassword = options['password-stdin'] === true ? await readPassword() : undefined;
    const created = unwrap(
      await createConsoleUser(CLI_ACTOR, {
        email: required(args, 0, 'email'),
        name: typeof options.name === 'string' ? options.name : '',
        role: role.data,
        password: chosenPassword,
      }),
    );
    const shownPassword = chosenPassword === undefined ? created.password : undefined;
    return {
      data: { ...created.user, ...(shownPassword ? { password: shownPassword } : {}) },
      text: `User #${created.user.id} ${safe(created.user.email)} (${created.user.role})${shownPassword ? `\nPassword (shown once): ${shownPassword}` : ''}\nAt the first sign-in the console asks them to choose their own password.`,
    };
  },

  async 'users:list'() {
    const users = await listConsoleUsers();
    return {
      data: users,
      text: users.map((user) => `#${user.id} ${safe(user.email)}  ${safe(user.name)}  ${user.role}${user.active ? '' : ' (inactive)'}`).join('\n') || 'No users.',
    };
  },

  async 'users:reset-two-factor'(args) {
    const email = required(args, 0, 'email');
    const user = await findConsoleUserByEmail(email.trim().toLowerCase());
    if (!user) throw new CliError(`no console user with the e-mail ${safe(email)}`);
    const reset = unwrap(await resetTwoFactor(CLI_ACTOR, user.id));
    return {
      data: { userId: user.id, sessionsEnded: reset.sessionsEnded },
      text: `Two-factor sign-in of ${safe(user.email)} removed; ${reset.sessionsEnded} session(s) ended. At the next sign-in they enrol again${user.role === 'admin' ? ' (required of administrators in production)' : ''}.`,
    };
  },

  async 'records:list'(_args, options) {
    let integrationId: number | undefined;
    if (typeof options.integration === 'string') integrationId = (await integrationByArg([options.integration])).id;
    let lookup: LookupKind | undefined;
    if (typeof options.lookup === 'string') {
      if (!(lookupKind.enumValues as readonly string[]).includes(options.lookup)) {
        throw new CliError(`--lookup must be one of ${lookupKind.enumValues.join(', ')}`);
      }
      lookup = options.lookup as LookupKind;
    }
    const limit = typeof options.limit === 'string' ? Number(options.limit) : 20;
    if (!Number.isInteger(limit) || limit < 1) throw new CliError('--limit must be a positive whole number');
    const identifier = typeof options.identifier === 'string' ? options.identifier : undefined;
    let requestId: string | undefined;
    if (typeof options['request-id'] === 'string') {
      requestId = typedRequestId(options['request-id']);
      if (!requestId || !isPlausibleRequestId(requestId)) throw new CliError(`--request-id must be a request id such as req_5f0c3a9d2b7e41c8a6f1 (got "${safe(options['request-id'])}")`);
    }
    const records = await listLatestRecords({ integracion: integrationId, consulta: lookup, identificador: identifier, solicitud: requestId }, limit);
    const text = records
      .map(
        (record) =>
          `${record.createdAt.toISOString()}  ${safe(record.integrationNombre)}  ${record.lookup.padEnd(8)} ${record.httpStatus}  ${String(record.responseTimeMs).padStart(5)} ms  ${formatQuetzales(record.chargedCentavos)}  nit=${safe(record.nit ?? '-')} cui=${safe(record.cui ?? '-')}  ${safe(record.requestId)}`,
      )
      .join('\n');
    // A request id with no record was refused before any source: the refusal counts (dashboard, console) say why.
    const none = requestId ? `No query record has request id ${requestId}: the request never reached a source (refused before it, or not sent to this service), so it was not recorded or charged.` : 'No query records.';
    return { data: records, text: text || none };
  },

  async 'integrations:history'(args, options) {
    const integration = await integrationByArg(args);
    const { filters, problems } = parseHistoryFilters({
      tipo: typeof options.kind === 'string' ? options.kind : undefined,
      desde: typeof options.since === 'string' ? options.since : undefined,
      hasta: typeof options.until === 'string' ? options.until : undefined,
    });
    if (problems.length > 0 || (typeof options.kind === 'string' && !filters.tipo)) {
      throw new CliError(`invalid filter: ${problems.join(' ') || '--kind must be top_up, adjustment or capture'}`);
    }
    const limit = typeof options.limit === 'string' ? Number(options.limit) : 50;
    if (!Number.isInteger(limit) || limit < 1 || limit > 1_000) throw new CliError('--limit must be a whole number from 1 to 1000');
    const [page, held] = await Promise.all([listHistoryPage(integration.id, filters, {}, limit), heldInFlight(integration.id)]);
    const inFlight = held.holds > 0 ? `\n  in flight: ${held.holds} hold(s), ${formatQuetzales(held.centavos)} held` : '';
    return {
      data: { integration: integration.nombre, balanceCentavos: integration.balanceCentavos, inFlight: held, rows: page.rows },
      text: `${safe(integration.nombre)}  balance ${formatQuetzales(integration.balanceCentavos)}${inFlight}\n${page.rows.map(historyLine).join('\n') || '  (no movements)'}`,
    };
  },

  async 'statements:create'(args, options) {
    const integration = await integrationByArg(args);
    const month = required(args, 1, 'month (YYYY-MM)');
    const statement = unwrap(await issueStatement(CLI_ACTOR, integration.id, month));
    const files: string[] = [];
    if (typeof options.out === 'string') {
      const directory = path.resolve(options.out);
      fs.mkdirSync(directory, { recursive: true });
      const pdf = path.join(directory, `estado-de-cuenta-${integration.nombre}-${month}.pdf`);
      fs.writeFileSync(pdf, await renderStatementPdf(statement, env().SERVICE_NAME));
      const csv = path.join(directory, `consultas-cobradas-${integration.nombre}-${month}.csv`);
      await pipeline(Readable.fromWeb(statementChargesCsvStream(integration.id, month, () => {}) as never), fs.createWriteStream(csv));
      files.push(pdf, csv);
    }
    const { figures } = statement;
    return {
      data: { ...statement, files },
      text: [
        `Statement #${statement.id}: ${safe(integration.nombre)} ${month} (issued ${statement.createdAt.toISOString()})`,
        `  opening ${formatQuetzales(figures.openingBalanceCentavos)}  top-ups ${formatQuetzales(figures.topUps.totalCentavos)} (${figures.topUps.count})` +
          `  adjustments ${formatQuetzales(figures.adjustments.totalCentavos)} (${figures.adjustments.count})` +
          `  charges ${formatQuetzales(-figures.charges.totalCentavos)} (${figures.charges.count})  closing ${formatQuetzales(figures.closingBalanceCentavos)}`,
        ...figures.charges.lines.map((line) => `    ${line.lookup.padEnd(8)} at ${formatQuetzales(line.tariffCentavos)}: ${line.count} = ${formatQuetzales(line.amountCentavos)}`),
        ...files.map((file) => `  wrote ${file}`),
      ].join('\n'),
    };
  },

  async 'ledger:verify'(_args, options) {
    const integrationId = typeof options.integration === 'string' ? (await integrationByArg([options.integration])).id : undefined;
    const run = await verifyLedger({ integrationId, trigger: 'cli', sweepAfterSeconds: env().HOLD_SWEEP_AFTER_SECONDS });
    const differences = run.differences as LedgerDifference[];
    const seconds = ((run.finishedAt.getTime() - run.startedAt.getTime()) / 1000).toFixed(1);
    const text = [
      `${run.ok ? 'OK' : 'DIFFERENCES FOUND'}: ${run.integrationsChecked} integration(s) checked in ${seconds} s`,
      ...differences.map((difference) => `  integration ${difference.integrationId}: ${difference.kind} x${difference.count} (${difference.detail}); e.g. ${difference.sample.join(', ')}`),
    ].join('\n');
    if (!run.ok) throw new CliError(text, 1);
    return { data: run, text };
  },

  async 'personal-data:reseal'(_args, options) {
    const whole = (name: string, fallback: number, min: number) => {
      const value = typeof options[name] === 'string' ? Number(options[name]) : fallback;
      if (!Number.isInteger(value) || value < min || value > 50_000) throw new CliError(`--${name} must be a whole number from ${min} to 50000`);
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
        process.stderr.write(`… ${progress.scanned} record(s) read, ${progress.resealed} resealed, through id ${progress.afterId}\n`);
      },
    });
    const seconds = ((Date.now() - startedAt) / 1000).toFixed(1);
    return {
      data: result,
      text:
        `${result.resumedAfterId > 0 ? `Resumed after record ${result.resumedAfterId}. ` : ''}` +
        `Read ${result.scanned} query record(s), resealed ${result.resealed}, in ${seconds} s. ` +
        `Every record is now under encryption key ${result.encryptionKeyId} and search key ${result.searchKeyId}: ` +
        'PERSONAL_DATA_PREVIOUS_KEYS and PERSONAL_DATA_PREVIOUS_SEARCH_KEYS can be emptied.',
    };
  },

  async 'records:purge'(_args, options) {
    const exportDir = typeof options['export-dir'] === 'string' ? options['export-dir'] : env().QUERY_RECORD_RETENTION_EXPORT_DIR;
    const result = await purgeExpiredRecords({ exportDir });
    return {
      data: { cutoff: result.cutoff.toISOString(), purged: result.purged, exportFile: result.exportFile ?? null, alertDeliveriesPurged: result.alertDeliveriesPurged },
      text:
        `Purged ${result.purged} query record(s) and ${result.alertDeliveriesPurged} alert delivery(ies) older than ${result.cutoff.toISOString()}` +
        `${result.exportFile ? `; records archived in ${result.exportFile}` : ''}.`,
    };
  },
};


export async function runCommand(command: string, args: string[], options: Options): Promise<CommandOutput> {
  const run = commands[command];
  if (!run) throw new CliError(`unknown command "${safe(command)}"\n\n${USAGE}`);
  return run(args, options);
}
