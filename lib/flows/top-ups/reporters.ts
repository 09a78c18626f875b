import type { PortalRole } from '@/db/schema';

/**
 * Who reports a bank deposit or transfer to be credited (the portal's Recargas) and downloads its
 * slip: the people who pay. Developers neither report nor see them.
 */
export const TOP_UP_REPORTERS: readonly PortalRole[] = ['propietario', 'facturacion'];
