// POST /api/sso/cierre-de-sesion - the identity provider's back-channel logout (lib/surfaces/api/backchannel-logout.ts).
import { backchannelLogoutRoute } from '@/lib/surfaces/api/backchannel-logout';

export const dynamic = 'force-dynamic';

export const POST = backchannelLogoutRoute;
