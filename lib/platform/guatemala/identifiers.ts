// Guatemalan identifiers: the SAT tax id (NIT) and the RENAP personal id (CUI, printed on the DPI).
// Pure functions, shared by the gateway, the source simulator and the operator tools, so that
// every part of the system agrees on what a valid identifier is.

/** A department of Guatemala as the CUI encodes it: two-digit code and number of municipalities. */
export interface Department {
  code: string;
  name: string;
  municipalityCount: number;
}

/**
 * The 22 departments and their municipality counts (340 in total). The counts include Sipacate
 * (05-14) and Petatan (13-33), created in 2015 and missing from older validators: a CUI issued
 * there must validate.
 */
export const DEPARTMENTS: readonly Department[] = [
  { code: '01', name: 'Guatemala', municipalityCount: 17 },
  { code: '02', name: 'El Progreso', municipalityCount: 8 },
  { code: '03', name: 'Sacatepéquez', municipalityCount: 16 },
  { code: '04', name: 'Chimaltenango', municipalityCount: 16 },
  { code: '05', name: 'Escuintla', municipalityCount: 14 },
  { code: '06', name: 'Santa Rosa', municipalityCount: 14 },
  { code: '07', name: 'Sololá', municipalityCount: 19 },
  { code: '08', name: 'Totonicapán', municipalityCount: 8 },
  { code: '09', name: 'Quetzaltenango', municipalityCount: 24 },
  { code: '10', name: 'Suchitepéquez', municipalityCount: 21 },
  { code: '11', name: 'Retalhuleu', municipalityCount: 9 },
  { code: '12', name: 'San Marcos', municipalityCount: 30 },
  { code: '13', name: 'Huehuetenango', municipalityCount: 33 },
  { code: '14', name: 'Quiché', municipalityCount: 21 },
  { code: '15', name: 'Baja Verapaz', municipalityCount: 8 },
  { code: '16', name: 'Alta Verapaz', municipalityCount: 17 },
  { code: '17', name: 'Petén', municipalityCount: 14 },
  { code: '18', name: 'Izabal', municipalityCount: 5 },
  { code: '19', name: 'Zacapa', municipalityCount: 11 },
  { code: '20', name: 'Chiquimula', municipalityCount: 11 },
  { code: '21', name: 'Jalapa', municipalityCount: 7 },
  { code: '22', name: 'Jutiapa', municipalityCount: 17 },
];

const municipalityCountByDepartment = new Map(DEPARTMENTS.map((department) => [department.code, department.municipalityCount]));

const CLASSIC_NIT_PATTERN = /^[0-9]{1,11}[0-9K]$/;
const CUI_PATTERN = /^[0-9]{13}$/;

/** Removes the separators people write inside a NIT (hyphen before the check character, spaces) and uppercases the K. */
export function normalizeNit(value: string): string {
  return value.replace(/[\s-]/g, '').toUpperCase();
}

/** Removes the spaces of the grouped display form (`2415 75181 0101`). */
export function normalizeCui(value: string): string {
  return value.replace(/\s/g, '');
}

/**
 * The check character of a NIT body (all digits but the check character): the body reversed,
 * weighted 2, 3, 4, ..., summed; `(11 - sum mod 11) mod 11`, where 10 is written `K`.
 */
export function nitCheckCharacter(body: string): string {
  if (!/^[0-9]+$/.test(body)) throw new RangeError(`A NIT body has only digits: ${JSON.stringify(body)}`);
  let sum = 0;
  for (let position = 0; position < body.length; position += 1) {
    sum += Number(body[body.length - 1 - position]) * (position + 2);
  }
  const check = (11 - (sum % 11)) % 11;
  return check === 10 ? 'K' : String(check);
}

/** A classic SAT NIT: 2 to 12 characters, digits then a mod-11 check character (0-9 or K). */
export function isValidClassicNit(value: string): boolean {
  const nit = normalizeNit(value);
  if (!CLASSIC_NIT_PATTERN.test(nit)) return false;
  return nitCheckCharacter(nit.slice(0, -1)) === nit.slice(-1);
}

/**
 * A NIT as SAT accepts it today: a classic mod-11 NIT, or a valid 13-digit CUI, because since
 * 17 March 2025 (SAT-DSI-393-2025) a Guatemalan person's CUI is also their NIT.
 */
export function isValidNit(value: string): boolean {
  return isValidClassicNit(value) || isValidCui(normalizeNit(value));
}

/**
 * The check digit of an 8-digit CUI serial: digit i (0-based, left to right) weighted i + 2,
 * summed, mod 11. Null when the remainder is 10: RENAP never issues such a serial.
 */
export function cuiCheckDigit(serial: string): number | null {
  if (!/^[0-9]{8}$/.test(serial)) throw new RangeError(`A CUI serial has exactly 8 digits: ${JSON.stringify(serial)}`);
  let sum = 0;
  for (let position = 0; position < serial.length; position += 1) {
    sum += Number(serial[position]) * (position + 2);
  }
  const remainder = sum % 11;
  return remainder === 10 ? null : remainder;
}

/**
 * A CUI: 8-digit serial, check digit, department (01-22) and a municipality that exists in that
 * department. Spaces between the digit groups (the printed form) are accepted.
 */
export function isValidCui(value: string): boolean {
  const cui = normalizeCui(value);
  if (!CUI_PATTERN.test(cui)) return false;
  const municipalityCount = municipalityCountByDepartment.get(cui.slice(9, 11));
  const municipality = Number(cui.slice(11, 13));
  if (municipalityCount === undefined || municipality < 1 || municipality > municipalityCount) return false;
  return cuiCheckDigit(cui.slice(0, 8)) === Number(cui[8]);
}

/** The printed grouping of a CUI: `2415 75181 0101` (4 + 5 + 4 digits). */
export function formatCuiGrouped(cui: string): string {
  const digits = normalizeCui(cui);
  return `${digits.slice(0, 4)} ${digits.slice(4, 9)} ${digits.slice(9)}`;
}
