'use client';

import { useRouter } from 'next/navigation';
import { ActionForm } from '@/components/console/action-form';
import { cancelOnlineTopUpAction } from '../../actions';

/** «Cancelar este pago» on a checkout nobody paid, asked first: its link stops counting as pending. */
export function CancelPaymentForm({ paymentId, description }: { paymentId: string; description: string }) {
  const router = useRouter();
  return (
    <ActionForm
      action={cancelOnlineTopUpAction}
      hidden={{ pago: paymentId }}
      submitLabel="Cancelar este pago"
      pendingLabel="Cancelando…"
      submitClassName="secondary"
      confirmation={{
        kind: 'text',
        title: '¿Cancelar este pago?',
        message: `${description} No se cobró nada; si quiere recargar, inicie otro pago desde Recargas.`,
        confirmLabel: 'Cancelar este pago',
      }}
      onSuccess={() => router.refresh()}
    >
      {null}
    </ActionForm>
  );
}
