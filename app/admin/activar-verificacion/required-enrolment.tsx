'use client';

import { useRouter } from 'next/navigation';
import { TwoFactorEnrolment } from '@/components/two-factor/enrolment';
import { CONSOLE_PLACE, CONSOLE_TWO_FACTOR_ACTIONS } from '../(console)/cuenta/two-factor';

export function RequiredEnrolment({ serviceName }: { serviceName: string }) {
  const router = useRouter();
  return (
    <TwoFactorEnrolment
      actions={CONSOLE_TWO_FACTOR_ACTIONS}
      place={CONSOLE_PLACE}
      serviceName={serviceName}
      doneLabel="Listo, entrar a la consola"
      onDone={() => {
        router.replace('/admin');
        router.refresh();
      }}
    />
  );
}
