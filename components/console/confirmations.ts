import { MAX_MOVEMENT_CENTAVOS } from '@/lib/integrations/schemas';
import { ROLE_LABELS } from '@/lib/format/labels';
import { formatQuetzales, parseQuetzales } from '@/lib/money';

/**
 * What a form asks before sending. Plain data, so server components can pass it: a fixed
 * question, or one computed from what was typed (the amount and the balance it leaves).
 */
export type Confirmation =
  | { kind: 'text'; title: string; message: string; confirmLabel: string }
  | { kind: 'top_up'; nombre: string; balanceCentavos: number }
  | { kind: 'adjustment'; nombre: string; balanceCentavos: number }
  | { kind: 'zero_tariff'; nombre: string }
  | { kind: 'promotion'; name: string; email: string; currentRole: 'admin' | 'support' };

export interface Question {
  title: string;
  message: string;
  confirmLabel: string;
}

/** The question to ask for these values, or undefined when nothing needs confirming. */
export function questionFor(confirmation: Confirmation, values: Record<string, unknown>): Question | undefined {
  const amount = typeof values.monto === 'string' ? parseQuetzales(values.monto) : undefined;
  // A movement the server will refuse needs no question: its messages say what to fix.
  const noted = typeof values.nota === 'string' && values.nota.trim().length >= 3;
  const plausible = amount !== undefined && Math.abs(amount) <= MAX_MOVEMENT_CENTAVOS && /^[^.]*(\.\d{0,2})?$/.test(String(values.monto).trim());
  switch (confirmation.kind) {
    case 'text':
      return confirmation;
    case 'top_up':
      if (!noted || !plausible || amount === undefined || amount <= 0) return undefined;
      return {
        title: `¿Recargar ${formatQuetzales(amount)} a «${confirmation.nombre}»?`,
        message: `El saldo pasará de ${formatQuetzales(confirmation.balanceCentavos)} a ${formatQuetzales(confirmation.balanceCentavos + amount)}.`,
        confirmLabel: `Recargar ${formatQuetzales(amount)}`,
      };
    case 'adjustment':
      if (!noted || !plausible || amount === undefined || amount === 0) return undefined;
      return {
        title: `¿${amount > 0 ? 'Sumar' : 'Restar'} ${formatQuetzales(Math.abs(amount))} al saldo de «${confirmation.nombre}»?`,
        message:
          confirmation.balanceCentavos + amount < 0
            ? `El saldo es ${formatQuetzales(confirmation.balanceCentavos)}: este ajuste lo dejaría por debajo de cero y se rechazará.`
            : `El saldo pasará de ${formatQuetzales(confirmation.balanceCentavos)} a ${formatQuetzales(confirmation.balanceCentavos + amount)}.`,
        confirmLabel: 'Registrar ajuste',
      };
    case 'zero_tariff':
      if (typeof values.tarifa !== 'string' || parseQuetzales(values.tarifa) !== 0) return undefined;
      return {
        title: `¿Tarifa cero para «${confirmation.nombre}»?`,
        message: 'Sus consultas de catálogo dejarán de cobrarse desde la siguiente consulta, hasta que vuelvas a poner una tarifa.',
        confirmLabel: 'Guardar tarifa Q 0.00',
      };
    case 'promotion':
      if (values.role !== 'admin' || confirmation.currentRole === 'admin') return undefined;
      return {
        title: `¿Hacer administrador a ${confirmation.name} (${confirmation.email})?`,
        message: `Pasará de ${ROLE_LABELS[confirmation.currentRole]} a ${ROLE_LABELS.admin}: podrá cambiarlo todo, integraciones, tarifas, saldos, tokens y usuarios.`,
        confirmLabel: 'Hacer administrador',
      };
  }
}
