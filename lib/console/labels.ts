import type { LedgerEntryKind, LookupKind } from '@/db/schema';
import { LOOKUP_FLAGS, type FlagName } from '@/lib/integrations/flags';

/** The five lookups as the console names them, in the contract's order. */
export const LOOKUP_LABELS: Record<LookupKind, string> = {
  renap: 'RENAP por CUI',
  rtu_nits: 'RTU por NIT',
  cui_nit: 'Catálogo CUI/NIT',
  rtu: 'Catálogo RTU',
  omisos: 'Catálogo omisos',
};

export const LOOKUP_ROUTES: Record<LookupKind, string> = {
  renap: '/api/renap/buscar-cui',
  rtu_nits: '/api/rtu/nits',
  cui_nit: '/api/catalogos/cui-nit',
  rtu: '/api/catalogos/rtu',
  omisos: '/api/catalogos/omisos',
};

export const LOOKUPS = Object.keys(LOOKUP_LABELS) as LookupKind[];

export const FLAG_LOOKUP: Record<FlagName, LookupKind> = Object.fromEntries(
  Object.entries(LOOKUP_FLAGS).map(([lookup, flag]) => [flag, lookup]),
) as Record<FlagName, LookupKind>;

export const LEDGER_KIND_LABELS: Record<LedgerEntryKind, string> = {
  top_up: 'Recarga',
  adjustment: 'Ajuste',
  hold: 'Reserva',
  capture: 'Cobro',
  void: 'Reserva liberada',
};

export const ROLE_LABELS = { admin: 'Administrador', support: 'Soporte' } as const;

/** Outcomes the dashboard and the filters group statuses into. */
export const OUTCOMES = ['success', 'client_error', 'source_error'] as const;
export type Outcome = (typeof OUTCOMES)[number];
export const OUTCOME_LABELS: Record<Outcome, string> = {
  success: 'Éxito (200)',
  client_error: 'Rechazadas por la fuente (4xx)',
  source_error: 'Fallas de la fuente (5xx)',
};

export function outcomeOf(httpStatus: number): Outcome {
  if (httpStatus >= 200 && httpStatus < 300) return 'success';
  return httpStatus >= 500 ? 'source_error' : 'client_error';
}

export const AUDIT_ACTION_LABELS: Record<string, string> = {
  'integration.create': 'Creó la integración',
  'integration.set_flags': 'Cambió las consultas habilitadas',
  'integration.set_tariff': 'Cambió la tarifa',
  'integration.deactivate': 'Desactivó la integración',
  'integration.reactivate': 'Reactivó la integración',
  'integration.rotate_token': 'Rotó el token',
  'balance.top_up': 'Recargó saldo',
  'balance.adjust': 'Ajustó saldo',
  'user.create': 'Creó el usuario',
  'user.set_role': 'Cambió el rol',
  'user.deactivate': 'Desactivó el usuario',
  'user.reactivate': 'Reactivó el usuario',
  'user.reset_password': 'Restableció la contraseña',
  'user.change_password': 'Cambió su contraseña',
};
