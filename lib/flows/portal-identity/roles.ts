import type { PortalRole } from '@/db/schema';
import { TOP_UP_REPORTERS } from '@/lib/flows/top-ups/reporters';

// The portal's roles: what each person of an integrator may see and do. Read by the
// portal's pages, its actions, the console and the CLI; no server-only imports here.

export const PORTAL_ROLES = ['propietario', 'desarrollador', 'facturacion'] as const satisfies readonly PortalRole[];

export const PORTAL_ROLE_LABELS: Record<PortalRole, string> = {
  propietario: 'Propietario',
  desarrollador: 'Desarrollador',
  facturacion: 'Facturación',
};

/**
 * What each role is for, as Inicio, the invitation and "Equipo" explain it: every section the role
 * opens, by its name in the navigation (lib/surfaces/portal/navigation.ts; roles.test.ts holds them equal).
 */
export const PORTAL_ROLE_DESCRIPTIONS: Record<PortalRole, string> = {
  propietario:
    'Inicio, Consultas, Lotes, Vigilancia, Movimientos, Estados de cuenta, Facturas, Recargas, Credenciales, Notificaciones, Equipo y Actividad: todo lo de la integración, también invitar y quitar personas, cambiar sus roles y ver quién hizo qué',
  desarrollador: 'Inicio, con el saldo a la vista; Consultas, Lotes, Vigilancia y Credenciales',
  facturacion: 'Inicio, Movimientos, Estados de cuenta, Facturas y Recargas; Lotes y Vigilancia para ver lo que cobran, sin sus identificadores',
};

/** Who manages the team (invitations, roles, removals). */
export const TEAM_MANAGERS: readonly PortalRole[] = ['propietario'];

export function isPortalRole(value: unknown): value is PortalRole {
  return typeof value === 'string' && (PORTAL_ROLES as readonly string[]).includes(value);
}

/**
 * Who reads the balance on Inicio, read-only: everyone. Developers are the ones who see the 402s;
 * the spending and the tariff stay with BILLING_READERS, a top-up with TOP_UP_REPORTERS.
 */
export const BALANCE_READERS: readonly PortalRole[] = ['propietario', 'desarrollador', 'facturacion'];

/** Who reads the balance history ("Movimientos"), the monthly statements ("Estados de cuenta") and the FEL invoices of the top-ups ("Facturas"). */
export const BILLING_READERS: readonly PortalRole[] = ['propietario', 'facturacion'];

/** Who reads the integration's tokens and IP allow-list ("Credenciales"). */
export const CREDENTIAL_READERS: readonly PortalRole[] = ['propietario', 'desarrollador'];

/**
 * Who creates, rotates and revokes the integration's tokens and edits its IP allow-list:
 * the people who run its systems. Billing neither sees nor changes credentials.
 */
export const CREDENTIAL_MANAGERS: readonly PortalRole[] = ['propietario', 'desarrollador'];

/**
 * Who reads which lookups are enabled for the integration: the people whose
 * systems call them. Only administrators change them; the portal says so.
 */
export const LOOKUP_READERS: readonly PortalRole[] = ['propietario', 'desarrollador'];

/** Who reads the integration's query records ("Consultas"), reveals their identifiers and exports them. */
export const RECORD_READERS: readonly PortalRole[] = ['propietario', 'desarrollador'];

/**
 * Who reads the integration's use on Inicio (lookups per day, per-minute limits): the people who
 * build against the API. Billing reads the money instead (BILLING_READERS).
 */
export const USAGE_READERS: readonly PortalRole[] = ['propietario', 'desarrollador'];

// Who reports a deposit is the top-ups' own rule (lib/flows/top-ups/reporters.ts); the portal's pages read it.
export { TOP_UP_REPORTERS };

/**
 * Who reads and changes the integration's notifications ("Notificaciones"): its
 * technical and billing contacts, its webhook and signing secret, what each recipient receives, and
 * the notices sent. The webhook's secret signs what reaches the integration's systems, so only owners.
 */
export const NOTIFICATION_MANAGERS: readonly PortalRole[] = ['propietario'];

/**
 * Who reads the integration's activity ("Actividad"): tokens rotated, identifiers revealed, results
 * downloaded, team and settings changed, by whom. It names every person of the team, so only owners.
 */
export const ACTIVITY_READERS: readonly PortalRole[] = ['propietario'];

/**
 * Who reads the integration's bulk jobs ("Lotes"): their state, counts and what they
 * charged. Billing reads them for the money they spend, never their identifiers or results.
 */
export const BULK_JOB_READERS: readonly PortalRole[] = ['propietario', 'desarrollador', 'facturacion'];

/**
 * Who creates and cancels bulk jobs and downloads their results (NITs, CUIs and names: each download
 * is logged as an access to personal data): the people who run the integration's systems.
 */
export const BULK_JOB_RUNNERS: readonly PortalRole[] = ['propietario', 'desarrollador'];

/**
 * Who may open each portal page, by its address (a page's subpages unless listed): the lists the
 * pages themselves check, so that a refusal names the roles that may open what was refused.
 */
export const PORTAL_PAGE_ROLES: Readonly<Record<string, readonly PortalRole[]>> = {
  '/portal/consultas': RECORD_READERS,
  '/portal/lotes/nuevo': BULK_JOB_RUNNERS,
  '/portal/lotes': BULK_JOB_READERS,
  '/portal/vigilancia/nueva': BULK_JOB_RUNNERS,
  '/portal/vigilancia': BULK_JOB_READERS,
  '/portal/movimientos': BILLING_READERS,
  '/portal/estados': BILLING_READERS,
  '/portal/facturas': BILLING_READERS,
  '/portal/recargas': TOP_UP_REPORTERS,
  '/portal/credenciales': CREDENTIAL_READERS,
  '/portal/notificaciones': NOTIFICATION_MANAGERS,
  '/portal/equipo': TEAM_MANAGERS,
  '/portal/actividad': ACTIVITY_READERS,
};

/** The roles that may open a portal address (its longest listed prefix), or undefined when none is listed. */
export function portalPageRoles(path: string | null | undefined): readonly PortalRole[] | undefined {
  const pathname = (path ?? '').split(/[?#]/)[0]!;
  const prefix = Object.keys(PORTAL_PAGE_ROLES)
    .sort((a, b) => b.length - a.length)
    .find((candidate) => pathname === candidate || pathname.startsWith(`${candidate}/`));
  return prefix ? PORTAL_PAGE_ROLES[prefix] : undefined;
}

/** "propietario y desarrollador": the roles a refusal names, in role order. */
export function portalRolesSentence(roles: readonly PortalRole[]): string {
  const labels = PORTAL_ROLES.filter((role) => roles.includes(role)).map((role) => PORTAL_ROLE_LABELS[role].toLowerCase());
  return labels.length <= 1 ? (labels[0] ?? '') : `${labels.slice(0, -1).join(', ')} y ${labels.at(-1)}`;
}
