// The longest e-mail address a contact may have (RFC 5321's limit, as the integration's details
// take it), for "Notificaciones"' contacts form: it renders in the browser too, so this module reads
// only lib/flows/integration-management/details-schemas.ts, which imports nothing but zod.
export { EMAIL_MAX } from '@/lib/flows/integration-management/details-schemas';
