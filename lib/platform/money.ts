// Money is integer centavos everywhere; these helpers are the only place quetzales appear as text.

// A leading "+" is allowed: adjustments are written with their sign ("+10", "-5").
const QUETZALES_PATTERN = /^([-+])?\s*(?:Q\s*)?(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d{1,2}))?$/;

/** Parses "1,234.50", "Q 12", "-3.5", "+10" into centavos without floating point; undefined if malformed. */
export function parseQuetzales(text: string): number | undefined {
  const match = QUETZALES_PATTERN.exec(text.trim());
  if (!match) return undefined;
  const [, sign, whole, fraction = ''] = match;
  const centavos = Number(whole!.replaceAll(',', '')) * 100 + Number(fraction.padEnd(2, '0'));
  if (!Number.isSafeInteger(centavos)) return undefined;
  return sign === '-' ? -centavos : centavos;
}

/** Formats centavos as "Q 1,234.50" (negative as "-Q 1,234.50"). */
export function formatQuetzales(centavos: number): string {
  const sign = centavos < 0 ? '-' : '';
  const absolute = Math.abs(centavos);
  const whole = Math.floor(absolute / 100).toLocaleString('en-US');
  const fraction = String(absolute % 100).padStart(2, '0');
  return `${sign}Q ${whole}.${fraction}`;
}

/** Centavos as a plain decimal number of quetzales, "1234.50" (for CSV: spreadsheets sum it). */
export function centavosAsDecimal(centavos: number): string {
  const sign = centavos < 0 ? '-' : '';
  const absolute = Math.abs(centavos);
  return `${sign}${Math.floor(absolute / 100)}.${String(absolute % 100).padStart(2, '0')}`;
}

/** The ISO 4217 code of the only currency the service handles. */
export const CURRENCY = 'GTQ';
