// POST /api/portal/sso/cierre-de-sesion - an integrator's identity provider's back-channel logout (lib/surfaces/api/portal-logout.ts).
import { companyLogoutRoute } from '@/lib/surfaces/api/portal-logout';

export const dynamic = 'force-dynamic';

export const POST = companyLogoutRoute;
