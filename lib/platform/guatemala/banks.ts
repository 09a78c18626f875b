// The banks of Guatemala an integrator deposits or transfers at (the Superintendencia de Bancos'
// list of commercial banks, late 2026). One list for the portal's form, the console, the CLI and
// the database's check: a request names its bank by code, the people read the name.

export const GUATEMALAN_BANKS = [
  { code: 'BI', name: 'Banco Industrial' },
  { code: 'BANRURAL', name: 'Banrural' },
  { code: 'BAM', name: 'BAM (Banco Agromercantil)' },
  { code: 'GYT', name: 'G&T Continental' },
  { code: 'BANTRAB', name: 'Bantrab (Banco de los Trabajadores)' },
  { code: 'PROMERICA', name: 'Banco Promerica' },
  { code: 'BAC', name: 'BAC Credomatic' },
  { code: 'BINTER', name: 'Banco Internacional' },
  { code: 'FICOHSA', name: 'Banco Ficohsa' },
  { code: 'INTERBANCO', name: 'Interbanco' },
  { code: 'INMOBILIARIO', name: 'Banco Inmobiliario' },
  { code: 'VIVIBANCO', name: 'Vivibanco' },
  { code: 'ANTIGUA', name: 'Banco de Antigua' },
  { code: 'AZTECA', name: 'Banco Azteca' },
  { code: 'CITI', name: 'Citibank' },
  { code: 'CHN', name: 'Crédito Hipotecario Nacional (CHN)' },
] as const;

export type BankCode = (typeof GUATEMALAN_BANKS)[number]['code'];

export const BANK_CODES = GUATEMALAN_BANKS.map((bank) => bank.code) as [BankCode, ...BankCode[]];

export function isBankCode(value: unknown): value is BankCode {
  return typeof value === 'string' && (BANK_CODES as readonly string[]).includes(value);
}

/** The bank's name as people read it; an unknown code (never written by this code) as it is. */
export function bankName(code: string): string {
  return GUATEMALAN_BANKS.find((bank) => bank.code === code)?.name ?? code;
}

/** The kinds of account a business holds at those banks: monetaria (checking) and de ahorro (savings). */
export const BANK_ACCOUNT_TYPES = ['monetaria', 'ahorro'] as const;
export type BankAccountType = (typeof BANK_ACCOUNT_TYPES)[number];
export const BANK_ACCOUNT_TYPE_LABELS: Record<BankAccountType, string> = { monetaria: 'Monetaria', ahorro: 'De ahorro' };

export const BANK_ACCOUNT_CURRENCIES = ['GTQ', 'USD'] as const;
export type BankAccountCurrency = (typeof BANK_ACCOUNT_CURRENCIES)[number];
export const BANK_ACCOUNT_CURRENCY_LABELS: Record<BankAccountCurrency, string> = { GTQ: 'Quetzales (GTQ)', USD: 'Dólares (USD)' };
