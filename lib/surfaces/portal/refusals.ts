import type { PortalRole } from '@/db/schema';
import { BULK_JOB_RUNNERS, PORTAL_ROLE_LABELS, portalRolesSentence } from '@/lib/flows/portal-identity/roles';

// What the portal says when a role may not open a page or download a file: at the address asked
// for, with a 403, naming the roles that may (from lib/flows/portal-identity/roles.ts, the lists that decide).

export const PORTAL_REFUSAL_TITLE = 'Esta página no es para su rol';
export const PORTAL_DOWNLOAD_REFUSAL_TITLE = 'Esta descarga no es para su rol';

/** "Tu rol en «X» es facturación. Esta página es para propietario y desarrollador." */
export function portalRefusalText(what: 'página' | 'descarga', integrationName: string, role: PortalRole, allowed: readonly PortalRole[] | undefined): string {
  const who = allowed && allowed.length > 0 ? ` ${what === 'página' ? 'Esta página' : 'Esta descarga'} es para ${portalRolesSentence(allowed)}.` : '';
  return `Su rol en «${integrationName}» es ${PORTAL_ROLE_LABELS[role].toLowerCase()}.${who} Si la necesita, pida a un propietario de su integración que cambie su rol.`;
}

/** On a job's page, to a role that reads jobs but not their results (billing). */
export function bulkResultsNotForRole(role: PortalRole): string {
  return `Los resultados de un lote traen los NIT, CUI y nombres completos: los descargan ${portalRolesSentence(BULK_JOB_RUNNERS)}. Su rol (${PORTAL_ROLE_LABELS[role].toLowerCase()}) ve el estado del lote, sus conteos y lo cobrado.`;
}
