// How the details read on the console page, in the CLI and on statements.

/** A stored NIT (no separators) as people write it: the hyphen before the check character; a CUI used as NIT as is. */
export function formatNit(nit: string): string {
  if (/^\d{13}$/.test(nit)) return nit;
  return `${nit.slice(0, -1)}-${nit.slice(-1)}`;
}

/** A stored phone (+502 and 8 digits) as it is dialled in Guatemala: +502 5555-1234. */
export function formatPhone(phone: string): string {
  const match = /^\+502(\d{4})(\d{4})$/.exec(phone);
  return match ? `+502 ${match[1]}-${match[2]}` : phone;
}

/** What a statement and the page say where a detail was never registered (never a blank). */
export const NOT_REGISTERED = { legalName: 'no registrada', nit: 'no registrado', address: 'no registrada', invoiceEmail: 'el del contacto de facturación' } as const;

/** The lines naming the integrator on its statement (its legal name and NIT as the statement stored them when issued). */
export function integratorIdentityLines(integrator: { legalName?: string | null; nit?: string | null; address?: string | null }): string[] {
  return [
    `Razón social: ${integrator.legalName ?? NOT_REGISTERED.legalName}`,
    `NIT: ${integrator.nit ? formatNit(integrator.nit) : NOT_REGISTERED.nit}`,
    // Statements issued before the billing profile had an address do not carry the line.
    ...(integrator.address ? [`Dirección fiscal: ${integrator.address}`] : []),
  ];
}
