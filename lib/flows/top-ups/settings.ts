import { z } from 'zod';
import { BANK_ACCOUNT_CURRENCIES, BANK_ACCOUNT_TYPES, BANK_CODES } from '@/lib/platform/guatemala/banks';
import { defineSettings, type SettingsOf } from '@/lib/platform/settings/fragment';
import { emptyAsUnset, integer, printableLine } from '@/lib/platform/settings/values';

// Deposits integrators report in the portal's Recargas: how old a deposit may be, and the service's
// accounts they deposit or transfer to (shown there and on /docs).

const bankAccountSchema = z.strictObject({
  bank: z.enum(BANK_CODES, `must be one of the banks' codes: ${BANK_CODES.join(', ')}`),
  type: z.enum(BANK_ACCOUNT_TYPES, `must be ${BANK_ACCOUNT_TYPES.join(' or ')}`),
  number: z
    .string()
    .trim()
    .regex(/^[0-9][0-9 -]{2,38}[0-9]$/, 'must be the account number: digits, with the hyphens or spaces the bank writes'),
  holder: printableLine(200),
  currency: z.enum(BANK_ACCOUNT_CURRENCIES, `must be ${BANK_ACCOUNT_CURRENCIES.join(' or ')}`),
});

export type TopUpBankAccount = z.infer<typeof bankAccountSchema>;

/**
 * The service's accounts integrators deposit to, as a JSON list; "[]" is none (the portal then says
 * to ask the service for them). A repeated bank and number is refused: one account shown twice.
 */
const bankAccounts = z.preprocess(
  (value) => {
    if (typeof value !== 'string') return value;
    try {
      return JSON.parse(value) as unknown;
    } catch {
      return Symbol('not JSON');
    }
  },
  z
    .array(bankAccountSchema, 'must be a JSON list of accounts, as [{"bank":"BI","type":"monetaria","number":"123-456789-0","holder":"…","currency":"GTQ"}]')
    .max(10)
    .refine(
      (accounts) => new Set(accounts.map((account) => `${account.bank} ${account.number.replace(/[^0-9]/g, '')}`)).size === accounts.length,
      'lists the same bank and account number twice',
    ),
);

/**
 * Where development's integrators deposit: an account that says on the page it is no operator's,
 * so the portal's Recargas shows what production's will without anyone's real account.
 */
export const DEVELOPMENT_TOP_UP_BANK_ACCOUNTS: readonly TopUpBankAccount[] = [
  { bank: 'BI', type: 'monetaria', number: '000-000000-0', holder: 'Cuenta de desarrollo, no deposite (configure TOP_UP_BANK_ACCOUNTS)', currency: 'GTQ' },
];

export const TOP_UP_SETTINGS = defineSettings({
  title: 'Reported deposits (lib/flows/top-ups)',
  shape: {
    // A bank statement that far back is what an administrator can still check a deposit against.
    TOP_UP_DEPOSIT_MAX_AGE_DAYS: integer(90, 1, 3_660),
    TOP_UP_BANK_ACCOUNTS: bankAccounts,
  },
  docs: {
    TOP_UP_DEPOSIT_MAX_AGE_DAYS: "A deposit dated more than this many days before today (Guatemala's calendar) is refused, naming the earliest day taken, as is one dated after today (1-3660).",
    TOP_UP_BANK_ACCOUNTS: "The service's accounts, a JSON list of {bank (lib/platform/guatemala/banks.ts's codes), type (monetaria or ahorro), number, holder, currency (GTQ or USD)}. Unset in production, or [], is none: Recargas says to ask for them; development shows a sample account.",
  },
  input: (source, appEnv) => ({
    TOP_UP_BANK_ACCOUNTS: emptyAsUnset(source.TOP_UP_BANK_ACCOUNTS) ?? (appEnv === 'production' ? [] : DEVELOPMENT_TOP_UP_BANK_ACCOUNTS),
  }),
});

export type TopUpSettings = SettingsOf<typeof TOP_UP_SETTINGS>;

/** The process's deposit settings, read on first use. */
export const topUpSettings = (): TopUpSettings => TOP_UP_SETTINGS.current();
