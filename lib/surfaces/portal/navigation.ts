import type { PortalRole } from '@/db/schema';
import { ACTIVITY_READERS, BILLING_READERS, BULK_JOB_READERS, CREDENTIAL_READERS, NOTIFICATION_MANAGERS, RECORD_READERS, TEAM_MANAGERS, TOP_UP_REPORTERS } from '@/lib/flows/portal-identity/roles';

/**
 * The portal's sections a role may open, in the navigation's order: the layout's links and the
 * links of a refused or missing download's page. A link to a page the role may not open would be a
 * link to a refusal.
 */
export function portalNavItems(role: PortalRole): { href: string; label: string }[] {
  return [
    { href: '/portal', label: 'Inicio' },
    ...(RECORD_READERS.includes(role) ? [{ href: '/portal/consultas', label: 'Consultas' }] : []),
    ...(BULK_JOB_READERS.includes(role)
      ? [
          { href: '/portal/lotes', label: 'Lotes' },
          // Its runs are jobs: who reads Lotes reads the lists that make them.
          { href: '/portal/vigilancia', label: 'Vigilancia' },
        ]
      : []),
    ...(BILLING_READERS.includes(role)
      ? [
          { href: '/portal/movimientos', label: 'Movimientos' },
          { href: '/portal/estados', label: 'Estados de cuenta' },
          { href: '/portal/facturas', label: 'Facturas' },
        ]
      : []),
    ...(TOP_UP_REPORTERS.includes(role) ? [{ href: '/portal/recargas', label: 'Recargas' }] : []),
    ...(CREDENTIAL_READERS.includes(role) ? [{ href: '/portal/credenciales', label: 'Credenciales' }] : []),
    ...(NOTIFICATION_MANAGERS.includes(role) ? [{ href: '/portal/notificaciones', label: 'Notificaciones' }] : []),
    ...(TEAM_MANAGERS.includes(role) ? [{ href: '/portal/equipo', label: 'Equipo' }] : []),
    ...(ACTIVITY_READERS.includes(role) ? [{ href: '/portal/actividad', label: 'Actividad' }] : []),
    { href: '/portal/cuenta', label: 'Mi cuenta' },
  ];
}
