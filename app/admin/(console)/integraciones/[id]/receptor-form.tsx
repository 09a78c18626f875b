'use client';

import { ReceptorForm as SharedReceptorForm } from '@/components/invoices/receptor-form';
import { lookUpReceptorAction, saveReceptorAction } from './receptor-actions';

/** The receptor's two steps for an administrator (components/invoices/receptor-form.tsx). */
export function ReceptorForm({ integrationId }: { integrationId: number }) {
  return <SharedReceptorForm lookUp={lookUpReceptorAction} save={saveReceptorAction} hidden={{ integrationId }} whoseName="el del integrador" />;
}
