'use server';

import { redirect } from 'next/navigation';
import { startCompanySignIn } from '@/lib/surfaces/portal/company-sign-in';

export interface CompanySignInState {
  error: string | null;
  email: string;
}

// POST /portal/ingresar/empresa - the e-mail's company names its identity provider; the browser goes there.
export async function companySignInAction(_previous: CompanySignInState, form: FormData): Promise<CompanySignInState> {
  const email = String(form.get('email') ?? '');
  const started = await startCompanySignIn(email);
  if (!started.ok) return { error: started.error, email };
  redirect(started.url);
}
