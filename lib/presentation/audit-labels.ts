import type { AuditEntry } from '@/db/schema';
import { ALERT_CHANNEL_LABELS } from '@/lib/presentation/alert-labels';
import { maskWebhookUrl } from '@/lib/platform/security/outbound-urls';
import type { OverlapPreset } from '@/lib/core/credentials/token-state';
import { OVERLAP_LABELS } from '@/lib/presentation/token-labels';
import { formatDateTime } from '@/lib/platform/time/guatemala-time';
import { FLAG_LOOKUP } from '@/lib/core/integrations/flags';
import { LOOKUP_LABELS } from '@/lib/vocabulary/labels';
import { ROLE_LABELS, USER_ORIGIN_LABELS } from '@/lib/presentation/labels';
import { SSO_REFUSAL_WORDS, type SsoRefusal } from '@/lib/flows/auth/sign-in-errors';

const upperFirst = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
import { FLAG_NAMES } from '@/lib/core/integrations/flags';
import { JOB_STATE_LABELS } from '@/lib/flows/bulk/labels';
import { isPortalRole, PORTAL_ROLE_LABELS } from '@/lib/flows/portal-identity/roles';
import { formatQuetzales } from '@/lib/platform/money';
import { RECEPTOR_KIND_LABELS } from '@/lib/presentation/invoice-labels';
import { bankName } from '@/lib/platform/guatemala/banks';
import { TOP_UP_STATE_LABELS } from '@/lib/flows/top-ups/labels';
import { ONLINE_PAYMENT_DETAIL_WORDS, ONLINE_PAYMENT_STATE_LABELS, PAYMENT_PROVIDER_NAMES } from '@/lib/flows/online-top-ups/labels';
import { AUTO_TOP_UP_STATE_LABELS } from '@/lib/flows/auto-top-ups/messages';

// The audit log stores field names and values as the code knows them; people read these.

const MONEY_FIELDS = new Set(['balanceCentavos', 'tariffCentavos', 'constanciaTariffCentavos', 'amountCentavos', 'lowBalanceAlertCentavos', 'feeCentavos', 'thresholdCentavos', 'reportedAmountCentavos']);

export const AUDIT_FIELD_LABELS: Record<string, string> = {
  nombre: 'Nombre',
  tokenPrefix: 'Inicio del token',
  tariffCentavos: 'Tarifa',
  balanceCentavos: 'Saldo',
  lowBalanceAlertCentavos: 'Umbral de saldo bajo',
  constanciasEnabled: 'Constancias de consulta',
  constanciaTariffCentavos: 'Tarifa por constancia',
  constanciaRetentionYears: 'Años que se guardan las pruebas de sus constancias',
  constanciasLegalHold: 'Retención legal de sus constancias',
  purpose: 'Finalidad declarada',
  legalName: 'Razón social',
  nit: 'NIT',
  technicalContactName: 'Contacto técnico',
  technicalContactEmail: 'Correo del contacto técnico',
  technicalContactPhone: 'Teléfono del contacto técnico',
  billingContactName: 'Contacto de facturación',
  billingContactEmail: 'Correo del contacto de facturación',
  billingContactPhone: 'Teléfono del contacto de facturación',
  receptorKind: 'Tipo de receptor de las facturas',
  receptorId: 'NIT o CUI del receptor',
  receptorName: 'Nombre del receptor',
  billingAddress: 'Dirección fiscal',
  invoiceEmail: 'Correo para facturas',
  reason: 'Motivo',
  reversal: 'Documento',
  invoiceReversalId: 'Anulación o nota de crédito',
  invoiceId: 'Factura',
  identifier: 'Identificador del documento',
  lastErrorCode: 'Código del certificador',
  lastErrorMessage: 'Mensaje del certificador',
  emittedAt: 'Emitida',
  amountCentavos: 'Monto',
  note: 'Nota',
  active: 'Activa',
  email: 'Correo',
  name: 'Nombre',
  role: 'Rol',
  passwordChangedAt: 'Contraseña cambiada',
  lockScope: 'Bloqueo',
  identityProviderRefusal: 'Motivo',
  integrationId: 'Integración',
  integration: 'Integración',
  sessionsEnded: 'Sesiones cerradas',
  origin: 'Forma de entrar',
  lockMinutes: 'Minutos de bloqueo',
  twoFactor: 'Verificación en dos pasos',
  sessions: 'Sesiones abiertas',
  recoveryCodes: 'Códigos de recuperación',
  method: 'Con',
  step: 'Paso',
  tokenId: 'Token',
  label: 'Nombre del token',
  expiresAt: 'Vence',
  revokedAt: 'Revocado',
  replaced: 'Token reemplazado',
  overlap: 'Superposición',
  allowedNetworks: 'Direcciones IP permitidas',
  webhook: 'Webhook de avisos',
  desactivados: 'Avisos desactivados',
  aviso: 'Aviso de prueba',
  reenviado: 'Aviso reenviado',
  canales: 'Canales de alerta',
  invitedBy: 'Enviadas por',
  invitations: 'Invitaciones anuladas',
  lote: 'Lote',
  estado: 'Estado del lote',
  // The money paths: deposits reported and approved, online payments, automatic top-up, invoices.
  state: 'Estado',
  bank: 'Banco',
  reference: 'Referencia',
  depositDate: 'Fecha del depósito',
  reportedAmountCentavos: 'Monto reportado',
  onlinePaymentId: 'Pago en línea',
  feeCentavos: 'Comisión',
  provider: 'Proveedor de pagos',
  providerPaymentId: 'Pago en el proveedor',
  source: 'Avisado por',
  ledgerEntryId: 'Movimiento del saldo',
  thresholdCentavos: 'Umbral de la recarga automática',
  dailyMax: 'Máximo de recargas automáticas por día',
  sourcePaymentId: 'Tarjeta (la del pago)',
  pausedReason: 'Motivo de la pausa',
  releasedInvoices: 'Facturas enviadas al certificador',
  detail: 'Detalle',
  // An integration's own identity provider for the portal (lib/flows/portal-identity/identity-provider.ts).
  issuer: 'Emisor',
  clientId: 'Id de cliente',
  clientSecret: 'Secreto del cliente',
  emailDomain: 'Dominio de correo',
  roleClaim: 'Atributo de roles',
  roleValues: 'Valores por rol',
  breakGlassEmails: 'Cuentas de emergencia',
  ...Object.fromEntries(
    FLAG_NAMES.map((flag) => {
      const label = LOOKUP_LABELS[FLAG_LOOKUP[flag]];
      return [flag, `${label} habilitad${label.startsWith('Catálogo') ? 'o' : 'a'}`];
    }),
  ),
};

/** The order fields are listed in: as the label table above names them. */
export const AUDIT_FIELD_ORDER: readonly string[] = Object.keys(AUDIT_FIELD_LABELS);

/** What a lock covers (lib/flows/auth/throttle.ts scopes), as the audit page says it. */
export const LOCK_SCOPE_LABELS: Record<string, string> = {
  account_ip: 'esta cuenta desde una dirección',
  ip: 'una dirección, con cualquier cuenta',
  password_change_account: 'cambios de contraseña de esta cuenta',
  password_change_ip: 'cambios de contraseña desde una dirección',
  second_factor_account: 'códigos de verificación de esta cuenta',
  second_factor_ip: 'códigos de verificación desde una dirección',
};

/** Values of the two-factor audit rows (lib/flows/two-factor/service.ts). */
const TWO_FACTOR_VALUE_LABELS: Record<string, Record<string, string>> = {
  method: { totp: 'código de la aplicación', recovery_code: 'código de recuperación' },
  step: { second_factor: 'segundo factor (código de verificación)' },
};

/** Who an integration's notice goes to (integration_notification_opt_outs' recipient). */
const RECIPIENT_LABELS: Record<string, string> = {
  technical: 'contacto técnico',
  billing: 'contacto de facturación',
  webhook: 'webhook',
};

/** A token as audited (lib/flows/integration-management/tokens.ts auditSnapshot): «name» (prefix…) and its state. */
function describeAuditedToken(token: Record<string, unknown>): string {
  const name = `«${String(token.label ?? '')}» (${String(token.tokenPrefix ?? '')}…)`;
  if (typeof token.revokedAt === 'string') return `${name}, revocado el ${formatDateTime(token.revokedAt)}`;
  if (typeof token.expiresAt === 'string') return `${name}, deja de funcionar el ${formatDateTime(token.expiresAt)}`;
  return name;
}

export function auditFieldLabel(field: string, targetType?: string): string {
  if (field === 'active' && targetType === 'console_user') return 'Activo';
  return AUDIT_FIELD_LABELS[field] ?? field;
}

/** The states the money paths audit (a deposit report, an online payment, an automatic top-up), in words. */
const STATE_WORDS: Record<string, string> = { ...TOP_UP_STATE_LABELS, ...ONLINE_PAYMENT_STATE_LABELS, ...AUTO_TOP_UP_STATE_LABELS };
const SOURCE_WORDS: Record<string, string> = { webhook: 'aviso del proveedor', read: 'consulta al proveedor', start: 'inicio del pago' };

/** What an empty value means for these fields. */
const NULL_WORDS: Record<string, string> = { expiresAt: 'sin vencimiento', revokedAt: 'no', webhook: 'ninguno' };

/**
 * A value as the console shows it: quetzales, sí/no, role names, Guatemalan dates. `conditionLabels`:
 * the alert conditions' names, for the notices turned off (each notice kind names itself, a rung
 * above: lib/reactions/integrator-notifications/labels.ts).
 */
export function formatAuditValue(field: string, value: unknown, conditionLabels: Readonly<Record<string, string>>): string {
  if (value === null && NULL_WORDS[field]) return NULL_WORDS[field];
  if (value === undefined || value === null) return '—';
  if (typeof value === 'number' && MONEY_FIELDS.has(field)) return formatQuetzales(value);
  if (typeof value === 'boolean') return value ? 'sí' : 'no';
  if (field === 'role' && (value === 'admin' || value === 'support')) return ROLE_LABELS[value];
  if (field === 'role' && isPortalRole(value)) return PORTAL_ROLE_LABELS[value];
  if (field === 'estado' && typeof value === 'string' && Object.hasOwn(JOB_STATE_LABELS, value)) return JOB_STATE_LABELS[value as keyof typeof JOB_STATE_LABELS];
  if (field === 'passwordChangedAt' && typeof value === 'string') return formatDateTime(value);
  if (field === 'lockScope' && typeof value === 'string') return LOCK_SCOPE_LABELS[value] ?? value;
  if (field === 'identityProviderRefusal' && typeof value === 'string') return Object.hasOwn(SSO_REFUSAL_WORDS, value) ? upperFirst(SSO_REFUSAL_WORDS[value as SsoRefusal]) : value;
  if (field === 'origin' && (value === 'local' || value === 'identity_provider')) return USER_ORIGIN_LABELS[value];
  if (typeof value === 'string' && TWO_FACTOR_VALUE_LABELS[field]?.[value]) return TWO_FACTOR_VALUE_LABELS[field][value];
  if ((field === 'expiresAt' || field === 'revokedAt') && typeof value === 'string') return formatDateTime(value);
  if (field === 'tokenId' && typeof value === 'number') return `n.º ${value}`;
  if (field === 'state' && typeof value === 'string') return STATE_WORDS[value] ?? value;
  if (field === 'depositDate' && typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value)) return value.split('-').reverse().join('/');
  if (field === 'bank' && typeof value === 'string') return bankName(value);
  if (field === 'source' && typeof value === 'string') return SOURCE_WORDS[value] ?? value;
  if (field === 'ledgerEntryId' && typeof value === 'number') return `#${value}`;
  if (field === 'integrationId' && typeof value === 'number') return `n.º ${value}`;
  if (field === 'provider' && typeof value === 'string') return PAYMENT_PROVIDER_NAMES[value] ?? value;
  if (field === 'detail' && typeof value === 'string') return ONLINE_PAYMENT_DETAIL_WORDS[value] ?? value;
  if ((field === 'invoiceId' || field === 'invoiceReversalId') && typeof value === 'number') return `#${value}`;
  if (field === 'reversal' && typeof value === 'string') return ({ void: 'Anulación', credit_note: 'Nota de crédito' } as Record<string, string>)[value] ?? value;
  if (field === 'emittedAt' && typeof value === 'string') return formatDateTime(value);
  if (field === 'receptorKind' && typeof value === 'string') return RECEPTOR_KIND_LABELS[value as keyof typeof RECEPTOR_KIND_LABELS] ?? value;
  if (field === 'overlap' && typeof value === 'string') return OVERLAP_LABELS[value as OverlapPreset] ?? value;
  if (field === 'replaced' && typeof value === 'object') return describeAuditedToken(value as Record<string, unknown>);
  // As the integration's page reads it back; an entry holding a whole URL never shows its query.
  if (field === 'webhook' && typeof value === 'string') return maskWebhookUrl(value);
  if (field === 'canales' && Array.isArray(value)) return value.map((channel) => ALERT_CHANNEL_LABELS[channel as keyof typeof ALERT_CHANNEL_LABELS]?.toLowerCase() ?? String(channel)).join(' y ');
  // An owner's pending invitations revoked with their removal or demotion (lib/flows/portal-identity/team.ts).
  if (field === 'invitations' && Array.isArray(value)) {
    return value.map((entry) => `${String((entry as { email?: unknown }).email)} (${formatAuditValue('role', (entry as { role?: unknown }).role, conditionLabels)})`).join(', ');
  }
  // The claim's values that give each portal role: "Propietario: ti-admins; Desarrollador: ninguno; …".
  if (field === 'roleValues' && typeof value === 'object' && !Array.isArray(value)) {
    const values = value as Record<string, unknown>;
    return Object.entries(PORTAL_ROLE_LABELS)
      .map(([role, label]) => {
        const listed = Array.isArray(values[role]) ? (values[role] as unknown[]).map(String) : [];
        return `${label}: ${listed.length === 0 ? 'ninguno' : listed.join(', ')}`;
      })
      .join('; ');
  }
  if (field === 'breakGlassEmails' && Array.isArray(value)) return value.length === 0 ? 'ninguna' : value.map(String).join(', ');
  if (field === 'allowedNetworks' && Array.isArray(value)) return value.length === 0 ? 'cualquier dirección (sin lista)' : value.join(', ');
  if (field === 'desactivados' && Array.isArray(value)) {
    if (value.length === 0) return 'ninguno';
    return value
      .map((pair) => {
        const [recipient, kind] = String(pair).split(':');
        return `${conditionLabels[kind!] ?? kind} al ${RECIPIENT_LABELS[recipient!] ?? recipient}`;
      })
      .join('; ');
  }
  return typeof value === 'string' ? value : JSON.stringify(value);
}

export const ANONYMOUS_ACTOR_LABEL = 'Sin sesión iniciada';
export const INTEGRATOR_ACTOR_LABEL = 'Integradores (portal)';

/**
 * Who made a change: a console user by name, a person of an integrator in the portal ("Integrador:
 * correo (integración)", the integration as it was named then), the operator CLI, the app itself,
 * or nobody signed in (sign-in attempts).
 */
export function describeAuditActor(actor: string, userNames: Map<number, string>): string {
  const user = /^user:(\d+) (.*)$/.exec(actor);
  if (user) return userNames.get(Number(user[1])) ?? user[2]!;
  const integrator = /^integrator:\d+ \d+ (\S+) \((.*)\)$/s.exec(actor);
  if (integrator) return `Integrador: ${integrator[1]} (${integrator[2]})`;
  const api = /^api:\d+ \((.*)\)$/s.exec(actor);
  if (api) return `API de la integración (${api[1]})`;
  if (actor === 'cli' || actor.startsWith('cli:')) return `Operador (CLI)${actor.startsWith('cli:') ? ` ${actor.slice(4)}` : ''}`;
  if (actor === 'system' || actor.startsWith('system:')) return 'El sistema';
  if (actor === 'anonymous') return ANONYMOUS_ACTOR_LABEL;
  return actor;
}

/** Which fields an audit row changed, with their values before and after. */
export function auditChanges(entry: Pick<AuditEntry, 'before' | 'after'>): AuditFieldChange[] {
  const before = (entry.before ?? {}) as Record<string, unknown>;
  const after = (entry.after ?? {}) as Record<string, unknown>;
  // An entry with nothing before (a creation, a top-up and its note) states values; it changes none.
  const stated = entry.before === null || entry.before === undefined;
  const fields = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort(byFieldOrder);
  return fields
    .filter((field) => JSON.stringify(before[field]) !== JSON.stringify(after[field]))
    .map((field) => ({ field, before: before[field], after: after[field], stated }));
}

export interface AuditFieldChange {
  field: string;
  before: unknown;
  after: unknown;
  /** True when the entry only states values (nothing before): shown as "Nota: …", not "Nota: — → …". */
  stated: boolean;
}

// PostgreSQL's jsonb keeps keys in its own order (shorter first), not the order they were written:
// the console lists fields in the order people read them (AUDIT_FIELD_ORDER), the rest by name.
function byFieldOrder(a: string, b: string): number {
  const rank = (field: string) => {
    const index = AUDIT_FIELD_ORDER.indexOf(field);
    return index === -1 ? AUDIT_FIELD_ORDER.length : index;
  };
  return rank(a) - rank(b) || a.localeCompare(b);
}
