'use client';

import { useRouter } from 'next/navigation';
import { TwoFactorEnrolment } from '@/components/two-factor/enrolment';
import { PORTAL_PLACE, PORTAL_TWO_FACTOR_ACTIONS } from '../(sesion)/cuenta/two-factor';

export function RequiredPortalEnrolment({ serviceName }: { serviceName: string }) {
  const router = useRouter();
  return (
    <TwoFactorEnrolment
      actions={PORTAL_TWO_FACTOR_ACTIONS}
      place={PORTAL_PLACE}
      serviceName={serviceName}
      doneLabel="Listo, entrar al portal"
      onDone={() => {
        router.replace('/portal');
        router.refresh();
      }}
    />
  );
}
