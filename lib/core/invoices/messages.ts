// What the console answers about a sale's invoice, in one place for the code and its tests.
import { formatQuetzales } from '@/lib/platform/money';
import { CF_LIMIT_CENTAVOS } from '@/lib/providers/fel/document';

export const INVOICE_MESSAGES = {
  /** A top-up refused before anything was credited: SAT does not take CF from Q 2,500.00 up. */
  cfOverLimit: `No se acreditó la recarga: SAT no permite facturar a consumidor final (CF) un total de ${formatQuetzales(CF_LIMIT_CENTAVOS)} o más. Registre la razón social y el NIT de la integración en sus datos y vuelva a intentarlo.`,
  /** The receptor in the integration's details cannot be invoiced (it was stored before the checks). */
  receptorInvalid: 'No se acreditó la recarga: el NIT o la razón social de la integración no sirven para facturar. Corríjalos en sus datos y vuelva a intentarlo.',
} as const;
