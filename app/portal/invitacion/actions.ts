'use server';

import { redirect } from 'next/navigation';
import { acceptPortalInvitation, parseInvitationAcceptance } from '@/lib/surfaces/portal/links';

export interface AcceptanceState {
  /** What is not about one field (a link no longer usable); a field's problem is said beside it only. */
  error: string | null;
  fieldErrors: Record<string, string>;
  name: string;
}

// POST /portal/invitacion - accepting an invitation: the link's code comes in the form (the page
// took it out of the address), with the person's name and chosen password. The account is created
// and signed in; where a second factor is required, its enrolment comes next.
export async function acceptInvitationAction(_previous: AcceptanceState, form: FormData): Promise<AcceptanceState> {
  const name = String(form.get('nombre') ?? '');
  const parsed = parseInvitationAcceptance({ nombre: name, clave: form.get('clave') ?? '', repetida: form.get('repetida') ?? '' });
  if (!parsed.success) {
    const fieldErrors: Record<string, string> = {};
    for (const issue of parsed.error.issues) fieldErrors[String(issue.path[0] ?? '')] ??= issue.message;
    return { error: null, fieldErrors, name };
  }
  const accepted = await acceptPortalInvitation(form.get('codigo'), parsed.data);
  if (!accepted.ok) {
    // A password the policy refuses is the password field's error: said there, not again above the form.
    if (accepted.error.code === 'invalid') return { error: null, fieldErrors: { clave: accepted.error.message }, name };
    return { error: accepted.error.message, fieldErrors: {}, name };
  }
  redirect(accepted.value.landingPath);
}
