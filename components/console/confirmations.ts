import { MAX_MOVEMENT_CENTAVOS, MAX_TARIFF_CENTAVOS } from '@/lib/core/integrations/schemas';
import { addressAllowed, compileAllowList, parseAllowList } from '@/lib/core/credentials/allow-list';
import type { OverlapPreset } from '@/lib/core/credentials/token-state';
import { OVERLAP_LABELS } from '@/lib/presentation/token-labels';
import { ROLE_LABELS } from '@/lib/presentation/labels';
import { formatQuetzales, parseQuetzales } from '@/lib/platform/money';

/**
 * What a form asks before sending. Plain data, so server components can pass it: a fixed
 * question, or one computed from what was typed (the amount and the balance it leaves).
 */
export type Confirmation =
  | { kind: 'text'; title: string; message: string; confirmLabel: string }
  | { kind: 'top_up'; nombre: string; balanceCentavos: number }
  | { kind: 'adjustment'; nombre: string; balanceCentavos: number }
  /** Approving a reported deposit: the amount typed in `monto` (the reported one when left as it is). */
  | { kind: 'top_up_request'; nombre: string; reportedCentavos: number; deposit: string }
  | { kind: 'tariff'; nombre: string; tariffCentavos: number }
  | { kind: 'promotion'; name: string; email: string; currentRole: 'admin' | 'support' }
  /** Rotating or revoking the token chosen in the form's `tokenId` (one of these). */
  | { kind: 'rotation' | 'revocation'; tokens: Array<{ id: number; label: string; prefix: string; distinction?: string }> }
  /**
   * An IP allow-list typed in `direcciones` that would refuse `clientAddress`, the address the
   * person is using now; confirmed, the form sends `fueraDeLista: 'si'` (the portal's server asks for it).
   */
  | { kind: 'allow_list'; clientAddress: string | null };

export interface Question {
  title: string;
  message: string;
  /** Absent when the server would refuse what was typed: the dialog only explains, and goes back. */
  confirmLabel?: string;
  /** Sent with the form when confirmed: what tells the server the person said yes to this question. */
  confirmedFields?: Record<string, string>;
}

/** From this many times the current tariff (or this many times less), the question says so: a typo of 150 for 1.50. */
const STRIKING_TARIFF_FACTOR = 10;

function tariffQuestion(nombre: string, currentCentavos: number, typed: unknown): Question | undefined {
  if (typeof typed !== 'string' || !/^[^.]*(\.\d{0,2})?$/.test(typed.trim())) return undefined;
  const next = parseQuetzales(typed);
  // Refused by the server (its message says what to fix) or no change at all: nothing to ask.
  if (next === undefined || next < 0 || next > MAX_TARIFF_CENTAVOS || next === currentCentavos) return undefined;
  if (next === 0) {
    return {
      title: `¿Tarifa cero para «${nombre}»?`,
      message: `Sus consultas de catálogo costaban ${formatQuetzales(currentCentavos)} y dejarán de cobrarse desde la siguiente consulta, hasta que vuelva a poner una tarifa.`,
      confirmLabel: 'Guardar tarifa Q 0.00',
    };
  }
  let factor = '';
  if (currentCentavos > 0 && next >= currentCentavos * STRIKING_TARIFF_FACTOR) {
    factor = ` Es ${timesText(next / currentCentavos)} veces la tarifa actual: revise el punto decimal.`;
  } else if (currentCentavos > 0 && next * STRIKING_TARIFF_FACTOR <= currentCentavos) {
    factor = ` Es ${timesText(currentCentavos / next)} veces menos que la tarifa actual: revise el punto decimal.`;
  }
  return {
    title: `¿Cambiar la tarifa de «${nombre}»?`,
    message: `Cada consulta de catálogo pasará de ${formatQuetzales(currentCentavos)} a ${formatQuetzales(next)} por consulta, desde la siguiente consulta.${factor}`,
    confirmLabel: `Guardar tarifa ${formatQuetzales(next)}`,
  };
}

/** 100 → "100", 12.345 → "12.3". */
function timesText(ratio: number): string {
  return (Math.round(ratio * 10) / 10).toLocaleString('en-US', { maximumFractionDigits: 1 });
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
      if (confirmation.balanceCentavos + amount < 0) {
        return {
          title: `No se puede restar ${formatQuetzales(Math.abs(amount))} al saldo de «${confirmation.nombre}»`,
          message: `El saldo es ${formatQuetzales(confirmation.balanceCentavos)}: este ajuste lo dejaría por debajo de cero y se rechazará. Corrija el monto.`,
        };
      }
      return {
        title: `¿${amount > 0 ? 'Sumar' : 'Restar'} ${formatQuetzales(Math.abs(amount))} al saldo de «${confirmation.nombre}»?`,
        message: `El saldo pasará de ${formatQuetzales(confirmation.balanceCentavos)} a ${formatQuetzales(confirmation.balanceCentavos + amount)}.`,
        confirmLabel: 'Registrar ajuste',
      };
    case 'top_up_request': {
      const credited = values.monto === undefined || String(values.monto).trim() === '' ? confirmation.reportedCentavos : amount;
      // An amount the server will refuse, or another amount without its note, needs no question: its messages say what to fix.
      if (credited === undefined || credited <= 0 || credited > MAX_MOVEMENT_CENTAVOS || !/^[^.]*(\.\d{0,2})?$/.test(String(values.monto ?? '').trim())) return undefined;
      const differs = credited !== confirmation.reportedCentavos;
      if (differs && (typeof values.nota !== 'string' || values.nota.trim().length < 5)) return undefined;
      return {
        title: `¿Acreditar ${formatQuetzales(credited)} a «${confirmation.nombre}»?`,
        message:
          (differs ? `Se reportaron ${formatQuetzales(confirmation.reportedCentavos)}; se acreditará ${formatQuetzales(credited)} con su nota, que la integración leerá. ` : '') +
          `Confirme que el depósito de ${confirmation.deposit} llegó a la cuenta del servicio. El saldo sube al aprobar y la integración recibe un aviso.`,
        confirmLabel: 'Aprobar y acreditar',
      };
    }
    case 'tariff':
      return tariffQuestion(confirmation.nombre, confirmation.tariffCentavos, values.tarifa);
    case 'rotation':
    case 'revocation': {
      const token = confirmation.tokens.find((candidate) => String(candidate.id) === String(values.tokenId));
      if (!token) return undefined;
      const named = `«${token.label}» (${[`${token.prefix}…`, token.distinction].filter(Boolean).join(', ')})`;
      if (confirmation.kind === 'revocation') {
        return {
          title: `¿Revocar el token ${named}?`,
          message: 'Deja de funcionar de inmediato en todas las instancias. No se puede deshacer.',
          confirmLabel: 'Revocar token',
        };
      }
      const overlap = (typeof values.superposicion === 'string' ? values.superposicion : 'none') as OverlapPreset;
      return {
        title: `¿Rotar el token ${named}?`,
        message:
          overlap === 'none' || !OVERLAP_LABELS[overlap]
            ? `Se genera un token nuevo con el mismo nombre, y ${named} deja de funcionar ahora mismo en todas las instancias.`
            : `Se genera un token nuevo con el mismo nombre. ${named} sigue funcionando durante ${OVERLAP_LABELS[overlap]} y después deja de funcionar.`,
        confirmLabel: 'Rotar token',
      };
    }
    case 'allow_list': {
      const typed = values.direcciones;
      const parsed = parseAllowList(typeof typed === 'string' ? typed : '');
      // A list the server will refuse needs no question (its messages say what to fix); one that
      // includes the address in use, or an empty one (any address), needs none either.
      if (!parsed.ok || addressAllowed(compileAllowList(parsed.entries), confirmation.clientAddress)) return undefined;
      return {
        title: '¿Guardar una lista que deja fuera su dirección?',
        message: confirmation.clientAddress
          ? `Ahora está conectado desde ${confirmation.clientAddress}, que la lista no incluye: si su sistema llama a la API desde esta red, sus consultas se rechazarán como credenciales no válidas.`
          : 'No se pudo leer la dirección desde la que está conectado, así que la lista no la incluye: si su sistema llama a la API desde esta red, sus consultas se rechazarán.',
        confirmLabel: 'Guardar de todos modos',
        confirmedFields: { fueraDeLista: 'si' },
      };
    }
    case 'promotion':
      if (values.role !== 'admin' || confirmation.currentRole === 'admin') return undefined;
      return {
        title: `¿Hacer administrador a ${confirmation.name} (${confirmation.email})?`,
        message: `Pasará de ${ROLE_LABELS[confirmation.currentRole]} a ${ROLE_LABELS.admin}: podrá cambiarlo todo, integraciones, tarifas, saldos, tokens y usuarios.`,
        confirmLabel: 'Hacer administrador',
      };
  }
}
