import { formatDateTime } from '@/lib/format/guatemala-time';
import { FLAG_LOOKUP, LOOKUP_LABELS, ROLE_LABELS } from '@/lib/format/labels';
import { FLAG_NAMES } from '@/lib/integrations/flags';
import { formatQuetzales } from '@/lib/money';

// The audit log stores field names and values as the code knows them; people read these.

const MONEY_FIELDS = new Set(['balanceCentavos', 'tariffCentavos', 'amountCentavos', 'lowBalanceAlertCentavos']);

export const AUDIT_FIELD_LABELS: Record<string, string> = {
  nombre: 'Nombre',
  tokenPrefix: 'Inicio del token',
  tariffCentavos: 'Tarifa',
  balanceCentavos: 'Saldo',
  lowBalanceAlertCentavos: 'Umbral de saldo bajo',
  amountCentavos: 'Monto',
  note: 'Nota',
  active: 'Activa',
  email: 'Correo',
  name: 'Nombre',
  role: 'Rol',
  passwordChangedAt: 'Contraseña cambiada',
  ...Object.fromEntries(
    FLAG_NAMES.map((flag) => {
      const label = LOOKUP_LABELS[FLAG_LOOKUP[flag]];
      return [flag, `${label} habilitad${label.startsWith('Catálogo') ? 'o' : 'a'}`];
    }),
  ),
};

export function auditFieldLabel(field: string, targetType?: string): string {
  if (field === 'active' && targetType === 'console_user') return 'Activo';
  return AUDIT_FIELD_LABELS[field] ?? field;
}

/** A value as the console shows it: quetzales, sí/no, role names, Guatemalan dates. */
export function formatAuditValue(field: string, value: unknown): string {
  if (value === undefined || value === null) return '—';
  if (typeof value === 'number' && MONEY_FIELDS.has(field)) return formatQuetzales(value);
  if (typeof value === 'boolean') return value ? 'sí' : 'no';
  if (field === 'role' && (value === 'admin' || value === 'support')) return ROLE_LABELS[value];
  if (field === 'passwordChangedAt' && typeof value === 'string') return formatDateTime(value);
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** Who made a change: a console user by name, the operator CLI, or the app itself. */
export function describeAuditActor(actor: string, userNames: Map<number, string>): string {
  const user = /^user:(\d+) (.*)$/.exec(actor);
  if (user) return userNames.get(Number(user[1])) ?? user[2]!;
  if (actor === 'cli' || actor.startsWith('cli:')) return `Operador (CLI)${actor.startsWith('cli:') ? ` ${actor.slice(4)}` : ''}`;
  if (actor === 'system' || actor.startsWith('system:')) return 'El sistema';
  return actor;
}
