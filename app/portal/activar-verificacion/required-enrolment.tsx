'use client';

import { useRouter } from 'next/navigation';
import { TwoFactorEnrolment } from '@/components/two-factor/enrolment';
import { confirmPortalEnrolmentAction, startPortalEnrolmentAction } from '../(sesion)/cuenta/two-factor-actions';

export const PORTAL_ENROLMENT = { start: startPortalEnrolmentAction, confirm: confirmPortalEnrolmentAction };
export const PORTAL_PLACE = { product: 'el portal', account: 'del portal' };

export function RequiredPortalEnrolment() {
  const router = useRouter();
  return (
    <TwoFactorEnrolment
      actions={PORTAL_ENROLMENT}
      place={PORTAL_PLACE}
      doneLabel="Listo, entrar al portal"
      onDone={() => {
        router.replace('/portal');
        router.refresh();
      }}
    />
  );
}
