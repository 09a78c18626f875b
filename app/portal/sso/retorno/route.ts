// GET /portal/sso/retorno - the integrator's identity provider returns here (lib/surfaces/portal/company-sign-in.ts).
import { companySignInReturnRoute } from '@/lib/surfaces/portal/company-sign-in';

export const dynamic = 'force-dynamic';

export const GET = companySignInReturnRoute;
