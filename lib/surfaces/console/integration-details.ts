// An integrator's details as the console's forms and its «Datos» section write them (the NIT with
// its hyphen, the phone as dialled, what an unregistered detail says) and how long their fields
// may be. Client components read this: no server imports.
export { formatNit, formatPhone, NOT_REGISTERED } from '@/lib/flows/integration-management/details-display';
export { CONTACT_NAME_MAX, EMAIL_MAX } from '@/lib/flows/integration-management/details-schemas';
