import type { ConsoleRole } from '@/db/schema';

/** The console's sections, as data: the header renders the ones the user's role may open. */
export const CONSOLE_NAVIGATION: Array<{ href: string; label: string; role: ConsoleRole }> = [
  { href: '/admin', label: 'Panel', role: 'support' },
  { href: '/admin/integraciones', label: 'Integraciones', role: 'support' },
  { href: '/admin/registros', label: 'Registros de consultas', role: 'support' },
  { href: '/admin/fuentes', label: 'Fuentes', role: 'support' },
  { href: '/admin/alertas', label: 'Alertas', role: 'support' },
  // Deposits integrators reported; the header counts the pending ones.
  { href: '/admin/recargas', label: 'Recargas', role: 'support' },
  // Every top-up's FEL invoice: both roles read them.
  { href: '/admin/facturas', label: 'Facturas', role: 'support' },
  // Every integration's bulk jobs: support reads, administrators pause and cancel.
  { href: '/admin/lotes', label: 'Lotes', role: 'support' },
  { href: '/admin/usuarios', label: 'Usuarios', role: 'admin' },
  { href: '/admin/auditoria', label: 'Auditoría', role: 'admin' },
  // "Accesos a datos personales": the page's title; the short label keeps the header on one row.
  { href: '/admin/datos-personales', label: 'Datos personales', role: 'admin' },
];

/** The console's pending top-up requests, whose navigation link carries their count. */
export const TOP_UP_REQUESTS_PATH = '/admin/recargas';
