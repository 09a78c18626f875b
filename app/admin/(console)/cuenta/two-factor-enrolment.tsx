'use client';

import { TwoFactorEnrolment as Enrolment } from '@/components/two-factor/enrolment';
import { confirmTwoFactorEnrolmentAction, startTwoFactorEnrolmentAction } from './two-factor-actions';

const CONSOLE_ENROLMENT = { start: startTwoFactorEnrolmentAction, confirm: confirmTwoFactorEnrolmentAction };
const CONSOLE = { product: 'la consola', account: 'de la consola' };

/** The console's enrolment (components/two-factor/enrolment.tsx with the console's actions). */
export function TwoFactorEnrolment(props: { doneLabel: string; onStarted?: () => void; onDone: () => void }) {
  return <Enrolment actions={CONSOLE_ENROLMENT} place={CONSOLE} {...props} />;
}
