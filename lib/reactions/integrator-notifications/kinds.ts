import { randomUUID } from 'node:crypto';
import type { AlertCondition, NotificationRecipient } from '@/db/schema';
import type { Actor } from '@/lib/core/audit/audit';
import { balanceCondition, lowBalanceThreshold, type BalanceSnapshot } from '@/lib/reactions/alerts/conditions';
import { formatQuetzales } from '@/lib/platform/money';
import { topUpGuidanceForNotice } from '@/lib/presentation/top-up-guidance';
import type { DecidedTopUp } from '@/lib/flows/top-ups/events';
import type { SettledOnlineTopUp } from '@/lib/flows/online-top-ups/events';
import type { PausedAutoTopUp } from '@/lib/flows/auto-top-ups/events';
import type { SaleAwaitingReceptor } from '@/lib/core/billing/events';

// What an integrator is told, decided without I/O: each kind, which of its contacts it is for, and
// its words (Spanish, short, readable on a phone).

export type NotificationKind = Exclude<AlertCondition, 'breaker_open' | 'certifier_credentials_refused' | 'books_mismatch' | 'account_under_attack' | 'test'>;

export const NOTIFICATION_KINDS: readonly NotificationKind[] = [
  'balance_low',
  'balance_exhausted',
  'statement_issued',
  'token_expiring',
  'token_revoked',
  'token_created',
  'token_rotated',
  'allow_list_changed',
  'tariff_changed',
  'lookups_changed',
  'top_up_approved',
  'top_up_rejected',
  'source_unavailable',
  'source_recovered',
  'bulk_job_finished',
  'bulk_job_paused',
  'watch_list_changes',
  'invoice_issued',
  'online_top_up_credited',
  'online_top_up_expired',
  'auto_top_up_paused',
  'invoice_awaiting_receptor',
];

/**
 * Kinds no one turns off: without them money sits credited with its invoice undone and nobody
 * told (a top-up's invoice waiting for the NIT). They are sent to their contact and the webhook
 * always, and no switch shows them.
 */
export const ALWAYS_SENT_KINDS: readonly NotificationKind[] = ['invoice_awaiting_receptor'];

/** The contact each kind is for (the webhook, when there is one, gets every kind). */
export const KIND_CONTACT: Record<NotificationKind, Exclude<NotificationRecipient, 'webhook'>> = {
  balance_low: 'billing',
  balance_exhausted: 'billing',
  statement_issued: 'billing',
  token_expiring: 'technical',
  token_revoked: 'technical',
  token_created: 'technical',
  token_rotated: 'technical',
  allow_list_changed: 'technical',
  // The tariff is what the balance pays; the lookups are what the integrator's systems may call.
  tariff_changed: 'billing',
  lookups_changed: 'technical',
  top_up_approved: 'billing',
  top_up_rejected: 'billing',
  source_unavailable: 'technical',
  source_recovered: 'technical',
  // The systems that submitted the job fetch its results; the balance is what a pause waits for.
  bulk_job_finished: 'technical',
  bulk_job_paused: 'billing',
  // Those who watch suppliers read the changes from the systems that saved the list.
  watch_list_changes: 'technical',
  // The invoice is what the integrator's accountant books the top-up with.
  invoice_issued: 'billing',
  online_top_up_credited: 'billing',
  online_top_up_expired: 'billing',
  // The integration's owners are e-mailed too (notifier.ts): only they can turn it back on.
  auto_top_up_paused: 'billing',
  // Only the integration's accountant knows the NIT its invoices must name.
  invoice_awaiting_receptor: 'billing',
};

/** The webhook's `tipo`. */
export const KIND_TYPE: Record<NotificationKind, string> = {
  balance_low: 'saldo_bajo',
  balance_exhausted: 'saldo_agotado',
  statement_issued: 'estado_de_cuenta_emitido',
  token_expiring: 'token_por_vencer',
  token_revoked: 'token_revocado',
  token_created: 'token_creado',
  token_rotated: 'token_rotado',
  allow_list_changed: 'lista_ip_cambiada',
  tariff_changed: 'tarifa_cambiada',
  lookups_changed: 'consultas_cambiadas',
  top_up_approved: 'recarga_acreditada',
  top_up_rejected: 'recarga_rechazada',
  source_unavailable: 'fuente_no_disponible',
  source_recovered: 'fuente_disponible',
  bulk_job_finished: 'lote_completado',
  bulk_job_paused: 'lote_en_pausa',
  watch_list_changes: 'vigilancia_cambios',
  invoice_issued: 'factura_emitida',
  online_top_up_credited: 'pago_en_linea_acreditado',
  online_top_up_expired: 'pago_en_linea_expirado',
  auto_top_up_paused: 'recarga_automatica_en_pausa',
  invoice_awaiting_receptor: 'factura_pendiente_nit',
};

/** The webhook's `tipo` of the test notice an administrator sends from the console. */
export const TEST_TYPE = 'prueba';

/** The webhook's JSON body; the e-mail says the same in words. */
export interface IntegratorNotification {
  id: string;
  tipo: string;
  /** What it is about, the same for every repeat of the condition ("saldo_bajo:12"). */
  condicion: string;
  fecha: string;
  servicio: string;
  titulo: string;
  mensaje: string;
  integracion: { id: number; nombre: string };
  /** The facts, by name (amounts in centavos, dates in ISO 8601). */
  datos: Record<string, string | number | null>;
}

/** A notification about to be queued: its dedup key and how long that key holds. */
export interface NotificationDraft {
  kind: NotificationKind;
  /** Unique per condition (and per occurrence, for events that happen once): the outbox's claim. */
  key: string;
  /** null: the deployment's INTEGRATOR_NOTIFICATION_REPEAT_HOURS. */
  intervalSeconds: number | null;
  integrationId: number;
  payload: IntegratorNotification;
  /** The statement whose PDF the e-mail attaches. */
  statementId?: number;
}

interface Context {
  serviceName: string;
  lowBalanceDefaultCentavos: number;
  /** The portal's public address (`https://…/portal`), for links in the notices; without it they name the page. */
  portalUrl?: string;
  /** Whether the deployment takes online payments: the balance notices say how to top up accordingly. */
  paysOnline?: boolean;
}

/** A portal page as a notice names it: its full address when the service's public URL is known. */
function portalPage(context: Context, path: string): string {
  return context.portalUrl ? `${context.portalUrl}${path}` : `/portal${path}`;
}

function draft(
  kind: NotificationKind,
  key: string,
  integration: { id: number; nombre: string },
  context: Context,
  words: { titulo: string; mensaje: string; datos: IntegratorNotification['datos'] },
  extra: Partial<Pick<NotificationDraft, 'intervalSeconds' | 'statementId'>> = {},
  now = new Date(),
): NotificationDraft {
  return {
    kind,
    key: `integrator:${key}`,
    intervalSeconds: extra.intervalSeconds ?? null,
    integrationId: integration.id,
    statementId: extra.statementId,
    payload: {
      id: `ntf_${randomUUID()}`,
      tipo: KIND_TYPE[kind],
      condicion: key,
      fecha: now.toISOString(),
      servicio: context.serviceName,
      titulo: words.titulo,
      mensaje: words.mensaje,
      integracion: { id: integration.id, nombre: integration.nombre },
      datos: words.datos,
    },
  };
}

/** Low (below the integration's threshold, the same one the administrators' alert uses) or exhausted. */
export function balanceNotification(snapshot: BalanceSnapshot, context: Context, now = new Date()): NotificationDraft | null {
  const condition = balanceCondition(snapshot, context);
  if (!condition) return null;
  const threshold = lowBalanceThreshold(snapshot, context);
  const balance = formatQuetzales(snapshot.balanceCentavos);
  const integration = { id: snapshot.integrationId, nombre: snapshot.nombre };
  const datos = { saldo_centavos: snapshot.balanceCentavos, umbral_centavos: threshold, tarifa_centavos: snapshot.tariffCentavos };
  if (condition === 'balance_exhausted') {
    return draft('balance_exhausted', `saldo_agotado:${snapshot.integrationId}`, integration, context, {
      titulo: 'Su saldo se agotó',
      mensaje:
        `El saldo de «${snapshot.nombre}» es ${balance} y no cubre la tarifa de ${formatQuetzales(snapshot.tariffCentavos)} por consulta. ` +
        `Las consultas responden 402 hasta que se recargue el saldo. ${topUpGuidanceForNotice({ paysOnline: context.paysOnline ?? false }, portalPage(context, '/recargas'))}`,
      datos,
    }, {}, now);
  }
  return draft('balance_low', `saldo_bajo:${snapshot.integrationId}`, integration, context, {
    titulo: 'Su saldo está bajo',
    mensaje: `El saldo de «${snapshot.nombre}» bajó a ${balance}, por debajo de su umbral de aviso de ${formatQuetzales(threshold)}. ${topUpGuidanceForNotice({ paysOnline: context.paysOnline ?? false }, portalPage(context, '/recargas'))}`,
    datos,
  }, {}, now);
}

/** A token's notifications happen once per token (and per warning): this long is "never again". */
const ONCE = 10 * 365 * 24 * 3_600;

export interface TokenFacts {
  id: number;
  label: string;
  tokenPrefix: string;
  expiresAt: Date | null;
  revokedAt: Date | null;
}

/** The two warnings before a token expires: 7 days before, then 1 day before. */
export type ExpiryWarning = '7d' | '1d';

/** Which warning is due for a token expiring at `expiresAt` (null: none yet, or already expired). */
export function expiryWarningDue(expiresAt: Date, now = new Date()): ExpiryWarning | null {
  const left = expiresAt.getTime() - now.getTime();
  if (left <= 0) return null;
  if (left <= 24 * 3_600_000) return '1d';
  if (left <= 7 * 24 * 3_600_000) return '7d';
  return null;
}

function tokenName(token: TokenFacts): string {
  return `«${token.label}» (${token.tokenPrefix}…)`;
}

export function tokenExpiringNotification(integration: { id: number; nombre: string }, token: TokenFacts & { expiresAt: Date }, warning: ExpiryWarning, context: Context, now = new Date()): NotificationDraft {
  const when = token.expiresAt.toLocaleString('es-GT', { timeZone: 'America/Guatemala', dateStyle: 'long', timeStyle: 'short' });
  // The expiry instant is in the key: a token whose expiry is moved gets its warnings again.
  return draft(
    'token_expiring',
    `token_por_vencer:${token.id}:${warning}:${token.expiresAt.getTime()}`,
    integration,
    context,
    {
      titulo: warning === '1d' ? 'Un token vence mañana' : 'Un token vence en 7 días',
      mensaje:
        `El token ${tokenName(token)} de «${integration.nombre}» deja de funcionar el ${when} (hora de Guatemala). ` +
        `Un propietario o un desarrollador de su integración puede rotarlo en el portal, en Credenciales (${portalPage(context, '/credenciales')}): ` +
        'el token nuevo se muestra una vez y el anterior sigue funcionando el tiempo que elija (nunca después de esa fecha), para cambiarlo en sus sistemas sin cortar el servicio.',
      datos: { token: `${token.label} (${token.tokenPrefix}…)`, token_id: token.id, vence: token.expiresAt.toISOString(), aviso: warning },
    },
    { intervalSeconds: ONCE },
    now,
  );
}

export function tokenRevokedNotification(integration: { id: number; nombre: string }, token: TokenFacts & { revokedAt: Date }, context: Context, now = new Date()): NotificationDraft {
  return draft(
    'token_revoked',
    `token_revocado:${token.id}`,
    integration,
    context,
    {
      titulo: 'Un token fue revocado',
      mensaje: `El token ${tokenName(token)} de «${integration.nombre}» fue revocado y ya no funciona. Las consultas con él responden como credenciales no válidas.`,
      datos: { token: `${token.label} (${token.tokenPrefix}…)`, token_id: token.id, revocado: token.revokedAt.toISOString() },
    },
    { intervalSeconds: ONCE },
    now,
  );
}

/**
 * Who made a credential change, as the integrator is told: a person of its own team by the e-mail
 * it signed in to the portal with; the service's staff, CLI or system only as "la administración
 * del servicio" (an integrator never learns a staff member's address, as Movimientos shows them).
 */
export type ChangedBy = { kind: 'portal'; email: string } | { kind: 'service' };

export function changedByOf(actor: Actor): ChangedBy {
  return actor.kind === 'integrator' ? { kind: 'portal', email: actor.email } : { kind: 'service' };
}

function changedByWords(by: ChangedBy): string {
  return by.kind === 'portal' ? `${by.email}, en el portal` : 'la administración del servicio';
}

const NOT_YOURS = 'Si nadie de su equipo lo pidió, revise sus credenciales en el portal y avise al servicio.';

function guatemalaTime(instant: Date): string {
  return instant.toLocaleString('es-GT', { timeZone: 'America/Guatemala', dateStyle: 'long', timeStyle: 'short' });
}

/** A token just created (not an integration's first, which its creation hands over). Once per token. */
export function tokenCreatedNotification(integration: { id: number; nombre: string }, token: TokenFacts & { createdAt: Date }, by: ChangedBy, context: Context, now = new Date()): NotificationDraft {
  const expiry = token.expiresAt ? ` Vence el ${guatemalaTime(token.expiresAt)} (hora de Guatemala).` : '';
  return draft(
    'token_created',
    `token_creado:${token.id}`,
    integration,
    context,
    {
      titulo: 'Se creó un token',
      mensaje: `Se creó el token ${tokenName(token)} de «${integration.nombre}» (lo creó ${changedByWords(by)}).${expiry} ${NOT_YOURS}`,
      datos: { token: `${token.label} (${token.tokenPrefix}…)`, token_id: token.id, creado: token.createdAt.toISOString(), vence: token.expiresAt?.toISOString() ?? null, hecho_por: changedByWords(by) },
    },
    { intervalSeconds: ONCE },
    now,
  );
}

/** A token just rotated: the one replaced, the new one, and until when the old one works. Once per rotation. */
export function tokenRotatedNotification(
  integration: { id: number; nombre: string },
  rotation: { replaced: TokenFacts; token: TokenFacts },
  by: ChangedBy,
  context: Context,
  now = new Date(),
): NotificationDraft {
  const { replaced, token } = rotation;
  const oldEnds = replaced.revokedAt ? 'ya no funciona' : replaced.expiresAt ? `sigue funcionando hasta el ${guatemalaTime(replaced.expiresAt)} (hora de Guatemala)` : 'sigue funcionando';
  return draft(
    'token_rotated',
    `token_rotado:${replaced.id}`,
    integration,
    context,
    {
      titulo: 'Se rotó un token',
      mensaje: `Se rotó el token ${tokenName(replaced)} de «${integration.nombre}» (lo rotó ${changedByWords(by)}): el nuevo es ${tokenName(token)} y el anterior ${oldEnds}. ${NOT_YOURS}`,
      datos: {
        token: `${replaced.label} (${replaced.tokenPrefix}…)`,
        token_id: replaced.id,
        token_nuevo: `${token.label} (${token.tokenPrefix}…)`,
        token_nuevo_id: token.id,
        anterior_funciona_hasta: replaced.revokedAt ? replaced.revokedAt.toISOString() : (replaced.expiresAt?.toISOString() ?? null),
        hecho_por: changedByWords(by),
      },
    },
    { intervalSeconds: ONCE },
    now,
  );
}

/** The IP allow-list just replaced. Once per change (the instant it was saved names it). */
export function allowListChangedNotification(
  integration: { id: number; nombre: string },
  change: { allowedNetworks: string[]; changedAt: Date },
  by: ChangedBy,
  context: Context,
  now = new Date(),
): NotificationDraft {
  const list = change.allowedNetworks.length ? `solo acepta sus consultas desde ${change.allowedNetworks.join(', ')}` : 'acepta sus consultas desde cualquier dirección';
  return draft(
    'allow_list_changed',
    `lista_ip_cambiada:${integration.id}:${change.changedAt.getTime()}`,
    integration,
    context,
    {
      titulo: 'Cambió la lista de direcciones IP permitidas',
      mensaje: `Cambió la lista de direcciones IP permitidas de «${integration.nombre}» (la cambió ${changedByWords(by)}): la API ahora ${list}. ${NOT_YOURS}`,
      datos: { direcciones: change.allowedNetworks.join(', '), cambiada: change.changedAt.toISOString(), hecho_por: changedByWords(by) },
    },
    { intervalSeconds: ONCE },
    now,
  );
}

/**
 * The catalog lookups' tariff just changed (only the service's administrators change it, from the
 * console or the CLI): the old and the new, and the instant from which lookups are charged the new
 * one. Once per change.
 */
export function tariffChangedNotification(
  integration: { id: number; nombre: string },
  change: { previousCentavos: number; tariffCentavos: number; changedAt: Date },
  context: Context,
  now = new Date(),
): NotificationDraft {
  return draft(
    'tariff_changed',
    `tarifa_cambiada:${integration.id}:${change.changedAt.getTime()}`,
    integration,
    context,
    {
      titulo: 'Cambió la tarifa por consulta',
      mensaje:
        `La tarifa por consulta de catálogo de «${integration.nombre}» cambió de ${formatQuetzales(change.previousCentavos)} a ${formatQuetzales(change.tariffCentavos)} ` +
        `desde el ${guatemalaTime(change.changedAt)} (hora de Guatemala); la cambió la administración del servicio. Las consultas desde entonces se cobran a la tarifa nueva.`,
      datos: { tarifa_anterior_centavos: change.previousCentavos, tarifa_centavos: change.tariffCentavos, aplica_desde: change.changedAt.toISOString() },
    },
    { intervalSeconds: ONCE },
    now,
  );
}

/** Lookups just enabled or disabled by the service's administrators, named as the console names them. Once per change. */
export function lookupsChangedNotification(
  integration: { id: number; nombre: string },
  change: { enabled: string[]; disabled: string[]; changedAt: Date },
  context: Context,
  now = new Date(),
): NotificationDraft {
  const parts = [
    change.enabled.length ? `habilitó ${change.enabled.join(', ')}` : '',
    change.disabled.length ? `deshabilitó ${change.disabled.join(', ')}` : '',
  ].filter(Boolean);
  const refused = change.disabled.length ? ' Las consultas deshabilitadas responden 403 (consulta no habilitada) hasta que se vuelvan a habilitar.' : '';
  return draft(
    'lookups_changed',
    `consultas_cambiadas:${integration.id}:${change.changedAt.getTime()}`,
    integration,
    context,
    {
      titulo: 'Cambiaron sus consultas habilitadas',
      mensaje: `La administración del servicio ${parts.join(' y ')} para «${integration.nombre}», desde el ${guatemalaTime(change.changedAt)} (hora de Guatemala).${refused}`,
      datos: { habilitadas: change.enabled.join(', '), deshabilitadas: change.disabled.join(', '), aplica_desde: change.changedAt.toISOString() },
    },
    { intervalSeconds: ONCE },
    now,
  );
}

export interface IssuedStatement {
  id: number;
  month: string;
  number: number;
  figures: { openingBalanceCentavos: number; closingBalanceCentavos: number; charges: { count: number; totalCentavos: number } };
}

/** A statement just issued, for the billing contact: its e-mail attaches the PDF. Once per statement. */
export function statementNotification(integration: { id: number; nombre: string }, statement: IssuedStatement, monthLabel: string, context: Context, now = new Date()): NotificationDraft {
  return draft(
    'statement_issued',
    `estado_de_cuenta:${statement.id}`,
    integration,
    context,
    {
      titulo: `Estado de cuenta de ${monthLabel}`,
      mensaje:
        `Se emitió el estado de cuenta No. ${statement.number} de «${integration.nombre}», de ${monthLabel}: ` +
        `${statement.figures.charges.count.toLocaleString('es-GT')} consultas cobradas por ${formatQuetzales(statement.figures.charges.totalCentavos)}; ` +
        `saldo al cierre ${formatQuetzales(statement.figures.closingBalanceCentavos)}. El correo lleva el PDF adjunto.`,
      datos: {
        numero: statement.number,
        periodo: statement.month,
        estado_de_cuenta_id: statement.id,
        total_centavos: statement.figures.charges.totalCentavos,
        saldo_centavos: statement.figures.closingBalanceCentavos,
      },
    },
    { intervalSeconds: ONCE, statementId: statement.id },
    now,
  );
}

/** A top-up's certified FEL invoice, as its notice tells of it: SAT's numbers and amounts, no receptor. */
export interface IssuedInvoiceFacts {
  id: number;
  documentType: string;
  serie: string;
  numero: string;
  uuid: string;
  certifiedAt: Date;
  taxableCentavos: number;
  taxCentavos: number;
  totalCentavos: number;
}

/**
 * A top-up's invoice just certified: its numbers, amounts and where to download it. The e-mail to the
 * billing contact attaches its PDF. Once per invoice (its id is the key).
 */
export function invoiceIssuedNotification(integration: { id: number; nombre: string }, invoice: IssuedInvoiceFacts, context: Context, now = new Date()): NotificationDraft {
  const page = portalPage(context, `/facturas/${invoice.id}`);
  return draft(
    'invoice_issued',
    `factura_emitida:${invoice.id}`,
    integration,
    context,
    {
      titulo: `Factura ${invoice.serie}-${invoice.numero} emitida`,
      mensaje:
        `Se certificó ante SAT la factura electrónica ${invoice.serie}-${invoice.numero} de «${integration.nombre}» por su recarga de ${formatQuetzales(invoice.totalCentavos)}` +
        ` (número de autorización ${invoice.uuid}). El correo lleva el PDF adjunto; el XML y el PDF están en el portal, en Facturas (${page}).`,
      datos: {
        factura_id: invoice.id,
        tipo_documento: invoice.documentType,
        serie: invoice.serie,
        numero_dte: invoice.numero,
        uuid: invoice.uuid,
        certificada: invoice.certifiedAt.toISOString(),
        monto_gravable_centavos: invoice.taxableCentavos,
        iva_centavos: invoice.taxCentavos,
        monto_total_centavos: invoice.totalCentavos,
        factura_url: page,
      },
    },
    { intervalSeconds: ONCE },
    now,
  );
}

/** A source down for longer than the deployment's INTEGRATOR_SOURCE_OUTAGE_MINUTES, or back: once per incident and integration. */
export function sourceNotification(
  kind: 'source_unavailable' | 'source_recovered',
  integration: { id: number; nombre: string },
  incident: { source: string; label: string; since: Date; until?: Date },
  context: Context,
  now = new Date(),
): NotificationDraft {
  const since = incident.since.toLocaleString('es-GT', { timeZone: 'America/Guatemala', dateStyle: 'long', timeStyle: 'short' });
  const incidentKey = `${incident.source}:${incident.since.getTime()}:${integration.id}`;
  const words =
    kind === 'source_unavailable'
      ? {
          titulo: `${incident.label} no está disponible`,
          mensaje:
            `La fuente «${incident.label}» no responde desde el ${since} (hora de Guatemala). ` +
            'Sus consultas a ella responden 502, sin cobro; puede reintentarlas. Le avisaremos cuando vuelva a estar disponible.',
        }
      : {
          titulo: `${incident.label} está disponible de nuevo`,
          mensaje: `La fuente «${incident.label}», que no respondía desde el ${since} (hora de Guatemala), vuelve a responder. Sus consultas a ella funcionan con normalidad.`,
        };
  return draft(
    kind,
    `${kind === 'source_unavailable' ? 'fuente_no_disponible' : 'fuente_disponible'}:${incidentKey}`,
    integration,
    context,
    { ...words, datos: { fuente: incident.label, fuente_id: incident.source, desde: incident.since.toISOString(), hasta: incident.until?.toISOString() ?? null } },
    { intervalSeconds: ONCE },
    now,
  );
}

/** The claim key of an integration's outage notification (the recovery is sent only after one). */
export function sourceUnavailableKey(source: string, since: Date, integrationId: number): string {
  return `integrator:fuente_no_disponible:${source}:${since.getTime()}:${integrationId}`;
}

/**
 * The test notice sent to the integration's webhook ("Enviar aviso de prueba"), by an administrator
 * in the console or an owner in the portal, so its text names neither: the same body, headers and
 * signature as every notice, no facts.
 */
export function testNotification(integration: { id: number; nombre: string }, context: Pick<Context, 'serviceName'>, now = new Date()): IntegratorNotification {
  return {
    id: `ntf_${randomUUID()}`,
    tipo: TEST_TYPE,
    condicion: `${TEST_TYPE}:${integration.id}`,
    fecha: now.toISOString(),
    servicio: context.serviceName,
    titulo: 'Aviso de prueba',
    mensaje:
      `Aviso de prueba de ${context.serviceName} para comprobar que el webhook de «${integration.nombre}» recibe los avisos ` +
      'y verifica su firma. No requiere ninguna acción.',
    integracion: { id: integration.id, nombre: integration.nombre },
    datos: {},
  };
}

export type { DecidedTopUp };

function topUpData(request: DecidedTopUp): IntegratorNotification['datos'] {
  return {
    solicitud_id: request.id,
    banco: request.bankName,
    referencia: request.reference,
    fecha_deposito: request.depositDate,
    monto_centavos: request.amountCentavos,
    // Only when the administrator credited another amount than reported.
    ...(request.reportedAmountCentavos !== request.amountCentavos ? { monto_reportado_centavos: request.reportedAmountCentavos } : {}),
    resuelta: request.decidedAt.toISOString(),
  };
}

/** A reported deposit credited by an administrator, with the balance it left. Once per request. */
export function topUpApprovedNotification(integration: { id: number; nombre: string }, request: DecidedTopUp, balanceCentavos: number, context: Context, now = new Date()): NotificationDraft {
  return draft(
    'top_up_approved',
    `recarga_acreditada:${request.id}`,
    integration,
    context,
    {
      titulo: 'Su recarga fue acreditada',
      mensaje:
        `Acreditamos ${formatQuetzales(request.amountCentavos)} a «${integration.nombre}» por el depósito en ${request.bankName} con referencia ${request.reference}. ` +
        (request.amountCentavos !== request.reportedAmountCentavos ? `Se había reportado ${formatQuetzales(request.reportedAmountCentavos)}. ` : '') +
        (request.approvalNote ? `Nota de la administración: ${request.approvalNote}. ` : '') +
        `Su saldo ahora es ${formatQuetzales(balanceCentavos)}.`,
      datos: { ...topUpData(request), ...(request.approvalNote ? { nota: request.approvalNote } : {}), saldo_centavos: balanceCentavos },
    },
    { intervalSeconds: ONCE },
    now,
  );
}

/** A reported deposit the administration rejected, with its reason. Once per request. */
export function topUpRejectedNotification(integration: { id: number; nombre: string }, request: DecidedTopUp, context: Context, now = new Date()): NotificationDraft {
  return draft(
    'top_up_rejected',
    `recarga_rechazada:${request.id}`,
    integration,
    context,
    {
      titulo: 'Su recarga no fue acreditada',
      mensaje:
        `No acreditamos el depósito de ${formatQuetzales(request.amountCentavos)} en ${request.bankName} con referencia ${request.reference} a «${integration.nombre}». ` +
        `Motivo: ${request.reason ?? 'sin motivo'}. Puede reportarlo de nuevo, corregido, en el portal (Recargas).`,
      datos: { ...topUpData(request), motivo: request.reason },
    },
    { intervalSeconds: ONCE },
    now,
  );
}

/** A bulk job (lote) as its notices tell of it: its id, never an identifier of its list. */
export interface BulkJobFacts {
  publicId: string;
  /** As the API names it (cui-nit, rtu, omisos). */
  catalog: string;
  state: 'completado' | 'cancelado' | 'en_pausa_sin_saldo';
  /** invalid counts the set-aside and the source-refused (the API's invalidos); rejected, the latter. */
  counts: { total: number; pending: number; found: number; notFound: number; invalid: number; rejected: number; failed: number };
  chargedCentavos: number;
  finishedAt: Date | null;
}

function bulkJobData(job: BulkJobFacts): IntegratorNotification['datos'] {
  return {
    lote: job.publicId,
    catalogo: job.catalog,
    estado: job.state,
    total: job.counts.total,
    encontrados: job.counts.found,
    no_encontrados: job.counts.notFound,
    invalidos: job.counts.invalid,
    rechazados: job.counts.rejected,
    fallidos: job.counts.failed,
    pendientes: job.counts.pending,
    cobrado_centavos: job.chargedCentavos,
    terminado: job.finishedAt?.toISOString() ?? null,
    resultados: `/api/lotes/${job.publicId}/resultados`,
  };
}

function count(n: number, one: string, many: string): string {
  return `${n.toLocaleString('es-GT')} ${n === 1 ? one : many}`;
}

/**
 * A job that ended: completed (also with failed rows) or cancelled. Once per job: the job's id is the key, and a job ends only once.
 */
export function bulkJobFinishedNotification(integration: { id: number; nombre: string }, job: BulkJobFacts, context: Context, now = new Date()): NotificationDraft {
  const cancelled = job.state === 'cancelado';
  const retry = job.counts.failed > 0 ? ` Puede reintentar los que fallaron con POST /api/lotes/${job.publicId}/reintentar.` : '';
  // Refused by the source is not set aside: it was asked, and it costs nothing (as the job's page counts it).
  const setAside = job.counts.invalid - job.counts.rejected;
  const parts = [
    count(job.counts.found, 'encontrado', 'encontrados'),
    count(job.counts.notFound, 'no encontrado', 'no encontrados'),
    count(setAside, 'inválido o repetido', 'inválidos o repetidos'),
    ...(job.counts.rejected > 0 ? [count(job.counts.rejected, 'rechazado por la fuente (sin costo)', 'rechazados por la fuente (sin costo)')] : []),
  ];
  const tally = `${parts.join(', ')} y ${count(job.counts.failed, 'con error de la fuente', 'con error de la fuente')}`;
  return draft(
    'bulk_job_finished',
    `lote_completado:${job.publicId}`,
    integration,
    context,
    {
      titulo: cancelled ? 'Su lote fue cancelado' : 'Su lote terminó',
      mensaje: cancelled
        ? `El lote ${job.publicId} (catálogo ${job.catalog}) de «${integration.nombre}» fue cancelado: de ${count(job.counts.total, 'identificador', 'identificadores')}, ${tally}; ` +
          `${count(job.counts.pending, 'quedó sin consultar', 'quedaron sin consultar')}, sin cobro. Se cobró ${formatQuetzales(job.chargedCentavos)}. Descargue los resultados en GET /api/lotes/${job.publicId}/resultados.${retry}`
        : `El lote ${job.publicId} (catálogo ${job.catalog}) de «${integration.nombre}» terminó: de ${count(job.counts.total, 'identificador', 'identificadores')}, ${tally}. ` +
          `Se cobró ${formatQuetzales(job.chargedCentavos)}. Descargue los resultados en GET /api/lotes/${job.publicId}/resultados.${retry}`,
      datos: bulkJobData(job),
    },
    { intervalSeconds: ONCE },
    now,
  );
}

/** A job paused because the balance no longer pays a lookup; once per pause (`pausedAt` names it). */
export function bulkJobPausedNotification(integration: { id: number; nombre: string }, job: BulkJobFacts, pausedAt: Date, balanceCentavos: number, context: Context, now = new Date()): NotificationDraft {
  return draft(
    'bulk_job_paused',
    `lote_en_pausa:${job.publicId}:${pausedAt.getTime()}`,
    integration,
    context,
    {
      titulo: 'Su lote está en pausa: sin saldo',
      mensaje:
        `El lote ${job.publicId} (catálogo ${job.catalog}) de «${integration.nombre}» se detuvo porque el saldo (${formatQuetzales(balanceCentavos)}) no cubre la tarifa de una consulta: ` +
        `${count(job.counts.pending, 'identificador espera', 'identificadores esperan')}. Sigue solo, sin volver a enviarlo, cuando se acredite una recarga.`,
      datos: { ...bulkJobData(job), saldo_centavos: balanceCentavos, en_pausa_desde: pausedAt.toISOString() },
    },
    { intervalSeconds: ONCE },
    now,
  );
}

/**
 * A watch list's run that found changes (Vigilancia): the list, the run, how many changes of each
 * kind and where to read them. Never a NIT, a name or a before/after value: those are read from the
 * API with the integration's credentials. Once per run (the run's job is the key).
 */
export interface WatchListChangeFacts {
  listPublicId: string;
  listName: string;
  jobPublicId: string;
  run: number;
  counts: Partial<Record<'registro' | 'omiso' | 'cobro_coactivo' | 'estado_rtu', number>>;
  total: number;
}

const CHANGE_KIND_WORDS = {
  omiso: ['cambio de omiso', 'cambios de omiso'],
  cobro_coactivo: ['cambio de cobro coactivo', 'cambios de cobro coactivo'],
  estado_rtu: ['cambio de estado en el RTU', 'cambios de estado en el RTU'],
  registro: ['NIT que apareció o dejó de aparecer', 'NIT que aparecieron o dejaron de aparecer'],
} as const;

export function watchListChangesNotification(integration: { id: number; nombre: string }, facts: WatchListChangeFacts, context: Context, now = new Date()): NotificationDraft {
  const parts = (Object.keys(CHANGE_KIND_WORDS) as (keyof typeof CHANGE_KIND_WORDS)[])
    .filter((kind) => (facts.counts[kind] ?? 0) > 0)
    .map((kind) => count(facts.counts[kind]!, CHANGE_KIND_WORDS[kind][0], CHANGE_KIND_WORDS[kind][1]));
  const link = `/api/vigilancias/${facts.listPublicId}/cambios`;
  return draft(
    'watch_list_changes',
    `vigilancia_cambios:${facts.jobPublicId}`,
    integration,
    context,
    {
      titulo: 'Hay cambios en su vigilancia',
      mensaje:
        `La vigilancia ${facts.listPublicId} de «${integration.nombre}» encontró ${count(facts.total, 'cambio', 'cambios')} desde su ejecución anterior: ${parts.join(', ')}. ` +
        `Vea el antes y el después de cada uno en GET ${link}.`,
      datos: {
        vigilancia: facts.listPublicId,
        ejecucion: facts.run,
        lote: facts.jobPublicId,
        cambios: facts.total,
        omiso: facts.counts.omiso ?? 0,
        cobro_coactivo: facts.counts.cobro_coactivo ?? 0,
        estado_rtu: facts.counts.estado_rtu ?? 0,
        registro: facts.counts.registro ?? 0,
        cambios_url: link,
      },
    },
    { intervalSeconds: ONCE },
    now,
  );
}

function onlineTopUpData(payment: SettledOnlineTopUp): IntegratorNotification['datos'] {
  return {
    pago_id: payment.id,
    medio: payment.method === 'bank_transfer' ? 'transferencia' : 'tarjeta',
    monto_centavos: payment.amountCentavos,
    pago_proveedor_id: payment.providerPaymentId,
    resuelto: payment.settledAt.toISOString(),
  };
}

/** An online payment (card or transfer) credited, with the balance it left. Once per payment. */
export function onlineTopUpCreditedNotification(integration: { id: number; nombre: string }, payment: SettledOnlineTopUp, balanceCentavos: number, context: Context, now = new Date()): NotificationDraft {
  return draft(
    'online_top_up_credited',
    `pago_en_linea_acreditado:${payment.id}`,
    integration,
    context,
    {
      titulo: 'Su pago en línea fue acreditado',
      mensaje:
        `Acreditamos ${formatQuetzales(payment.amountCentavos)} a «${integration.nombre}» por su pago en línea ` +
        `(${payment.method === 'bank_transfer' ? 'transferencia bancaria' : 'tarjeta'}). Su saldo ahora es ${formatQuetzales(balanceCentavos)}.`,
      datos: { ...onlineTopUpData(payment), saldo_centavos: balanceCentavos },
    },
    { intervalSeconds: ONCE },
    now,
  );
}

/** An online payment that will not be credited: a transfer that never arrived, a checkout unpaid in time. Once per payment. */
export function onlineTopUpExpiredNotification(integration: { id: number; nombre: string }, payment: SettledOnlineTopUp, context: Context, now = new Date()): NotificationDraft {
  return draft(
    'online_top_up_expired',
    `pago_en_linea_expirado:${payment.id}`,
    integration,
    context,
    {
      titulo: 'Su pago en línea no se completó',
      mensaje:
        `El pago en línea de ${formatQuetzales(payment.amountCentavos)} para «${integration.nombre}» no se completó a tiempo y no se acreditó. ` +
        'Si el banco debitó el monto, comuníquese con nosotros indicando la fecha y el monto del pago; puede intentarlo de nuevo en el portal (Recargas).',
      datos: onlineTopUpData(payment),
    },
    { intervalSeconds: ONCE },
    now,
  );
}

/** Automatic top-up paused after a charge and its retry failed: it stays off until an owner acts. Once per pause. */
export function autoTopUpPausedNotification(paused: PausedAutoTopUp, context: Context, now = new Date()): NotificationDraft {
  return draft(
    'auto_top_up_paused',
    `recarga_automatica_en_pausa:${paused.integration.id}:${paused.chargeId}`,
    paused.integration,
    context,
    {
      titulo: 'La recarga automática está en pausa',
      mensaje:
        `No pudimos cargar la tarjeta de la recarga automática de «${paused.integration.nombre}» (dos intentos): no se hará otro cargo hasta que el propietario la reactive ` +
        `o la desactive en el portal (${portalPage(context, '/recargas/automatica')}). Mientras tanto, el saldo no se recarga solo.`,
      datos: { motivo: paused.reason, en_pausa_desde: paused.pausedAt.toISOString() },
    },
    { intervalSeconds: ONCE },
    now,
  );
}

/**
 * A top-up was credited, but its invoice waits for the integration's NIT: SAT takes no invoice to
 * consumidor final from Q 2,500.00. Once per credited top-up.
 */
export function invoiceAwaitingReceptorNotification(sale: SaleAwaitingReceptor, context: Context, now = new Date()): NotificationDraft {
  return draft(
    'invoice_awaiting_receptor',
    `factura_pendiente_nit:${sale.ledgerEntryId}`,
    sale.integration,
    context,
    {
      titulo: 'Registre su NIT para recibir la factura de su recarga',
      mensaje:
        `Acreditamos ${formatQuetzales(sale.amountCentavos)} al saldo de «${sale.integration.nombre}», pero SAT no permite facturar ese monto a consumidor final: ` +
        `la factura se emitirá en cuanto registre el NIT (o el CUI) de su empresa en sus datos de facturación (${portalPage(context, '/facturas/datos')}).`,
      datos: { monto_centavos: sale.amountCentavos, movimiento_id: sale.ledgerEntryId },
    },
    { intervalSeconds: ONCE },
    now,
  );
}

