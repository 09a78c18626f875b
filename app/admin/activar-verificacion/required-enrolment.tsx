'use client';

import { useRouter } from 'next/navigation';
import { TwoFactorEnrolment } from '../(console)/cuenta/two-factor-enrolment';

export function RequiredEnrolment() {
  const router = useRouter();
  return (
    <TwoFactorEnrolment
      doneLabel="Listo, entrar a la consola"
      onDone={() => {
        router.replace('/admin');
        router.refresh();
      }}
    />
  );
}
