import { z } from 'zod';

// Each detail is optional: an empty value means "not registered" and is stored as null. The
// messages name the field, because the CLI shows them without a form around them.

export const CONTACT_NAME_MAX = 120;
// RFC 5321's limit for a forward path: longer addresses cannot be delivered anyway.
export const EMAIL_MAX = 254;
/** A billing profile's fiscal address (lib/flows/invoicing/receptor.ts). */
export const BILLING_ADDRESS_MAX = 300;

// Control characters would break the statement's PDF line and the CLI's output.
const NO_CONTROL_CHARACTERS = /^[^\p{Cc}]*$/u;

function optional<Output>(present: z.ZodType<Output, string>) {
  return z.preprocess(
    (value) => (value === null || value === undefined || (typeof value === 'string' && value.trim() === '') ? null : value),
    z.string({ error: 'Escriba el valor como texto.' }).trim().pipe(present).nullable(),
  );
}

function contactNameSchema(contact: string) {
  return optional(
    z
      .string()
      .min(2, `El nombre del contacto ${contact} debe tener al menos 2 caracteres.`)
      .max(CONTACT_NAME_MAX, `El nombre del contacto ${contact} puede tener como máximo ${CONTACT_NAME_MAX} caracteres.`)
      .regex(NO_CONTROL_CHARACTERS, `El nombre del contacto ${contact} no puede llevar saltos de línea ni caracteres de control.`),
  );
}

function contactEmailSchema(contact: string) {
  return optional(
    z
      .string()
      .max(EMAIL_MAX, `El correo del contacto ${contact} puede tener como máximo ${EMAIL_MAX} caracteres.`)
      .pipe(z.email({ error: `El correo del contacto ${contact} no es válido: escríbalo como nombre@empresa.com.` })),
  );
}

/** Digits of a Guatemalan subscriber number: 8, the first 2 to 7 (fixed lines and mobiles). */
const GUATEMALAN_NUMBER = /^[2-7]\d{7}$/;

/**
 * A Guatemalan phone number as people write it ("5555 1234", "+502 5555-1234", "2222-3333"),
 * stored as +502 and its 8 digits, so two writings of one number read alike.
 */
export function normalizeGuatemalanPhone(value: string): string | undefined {
  const compact = value.replace(/[\s-]/g, '');
  const digits = compact.startsWith('+502') ? compact.slice(4) : compact;
  return GUATEMALAN_NUMBER.test(digits) ? `+502${digits}` : undefined;
}

function contactPhoneSchema(contact: string) {
  return optional(
    z.string().transform((value, context) => {
      const phone = normalizeGuatemalanPhone(value);
      if (phone) return phone;
      context.addIssue({
        code: 'custom',
        message: `El teléfono del contacto ${contact} no es válido: escriba un número de Guatemala de 8 dígitos, por ejemplo 5555 1234 o +502 2222-3333.`,
      });
      return z.NEVER;
    }),
  );
}

/** Every detail and its schema, in the order the console and the audit list them. */
// The razón social and NIT are not among them: they are the billing profile's, set with SAT's name
// for the NIT (lib/flows/invoicing/receptor.ts), so the integration, its invoices and its statements
// name one company.
export const DETAIL_SCHEMAS = {
  technicalContactName: contactNameSchema('técnico'),
  technicalContactEmail: contactEmailSchema('técnico'),
  technicalContactPhone: contactPhoneSchema('técnico'),
  billingContactName: contactNameSchema('de facturación'),
  billingContactEmail: contactEmailSchema('de facturación'),
  billingContactPhone: contactPhoneSchema('de facturación'),
} as const;

export type DetailField = keyof typeof DETAIL_SCHEMAS;
export const DETAIL_FIELDS = Object.keys(DETAIL_SCHEMAS) as DetailField[];

/** Who the integrator is and whom to write to; null: not registered. */
export type IntegrationDetails = Record<DetailField, string | null>;

declare const validated: unique symbol;
/** Details that went through parseIntegrationDetails: only those can be stored. */
export type ValidDetails = Partial<IntegrationDetails> & { readonly [validated]: true };
