import { z } from 'zod';

// The kinds of value settings take, as each capability's settings declare them.

export const emptyAsUnset = (value: unknown) => (value === '' ? undefined : value);

export const integer = (fallback: number, min = 0, max = Number.MAX_SAFE_INTEGER) => z.coerce.number().int().min(min).max(max).default(fallback);

export const flag = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0'])
    .default(fallback ? 'true' : 'false')
    .transform((value) => value === 'true' || value === '1');

export const httpUrl = z.url({ protocol: /^https?$/ });

/** A setting that may be left unset (or empty, as a .env file leaves it). */
export const optional = <Schema extends z.ZodType>(schema: Schema) => z.preprocess(emptyAsUnset, schema.optional());

/** A 256-bit key written as base64 (`openssl rand -base64 32`). */
const isBase64Key = (value: string) => /^[A-Za-z0-9+/_-]{43}=?$/.test(value.trim()) && Buffer.from(value.trim(), 'base64').length === 32;
export const base64Key = z.string().refine(isBase64Key, 'must be 32 random bytes in base64 (openssl rand -base64 32)');
export const base64Keys = z.preprocess(
  (value) => (typeof value === 'string' && value.trim() !== '' ? value.split(',').map((key) => key.trim()).filter((key) => key !== '') : []),
  // Reported as the variable itself: which key of the list is wrong is not printed, it is a secret.
  z.array(z.string()).refine((keys) => keys.every(isBase64Key), 'must be comma-separated keys of 32 bytes in base64'),
);

/** One line of printable text: a line break or a control character would break a PDF line. */
export const printableLine = (max: number) =>
  z
    .string()
    .trim()
    .min(1)
    .max(max)
    .refine((value) => !/[\u0000-\u001f\u007f]/.test(value), 'must be one line of printable text');

/** `defaults` for each of them `source` leaves unset (or empty): development's values under the operator's own. */
export function unlessSet(source: Record<string, string | undefined>, defaults: Record<string, string>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(defaults).map(([name, value]) => [name, emptyAsUnset(source[name]) ?? value]));
}

/** The simulator's address in development: SIMULATOR_PORT alone moves every address that follows it. */
export function simulatorUrl(source: Record<string, string | undefined>): string {
  return `http://127.0.0.1:${emptyAsUnset(source.SIMULATOR_PORT) ?? '4010'}`;
}

/** Whether `source` runs under `npm run dev` (Next's development server sets NODE_ENV=development) as development. */
export function underNpmRunDev(source: Record<string, string | undefined>, appEnv: string): boolean {
  return appEnv === 'development' && source.NODE_ENV === 'development';
}
