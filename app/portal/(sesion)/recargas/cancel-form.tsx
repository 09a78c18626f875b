'use client';

import { useRouter } from 'next/navigation';
import { ActionForm } from '@/components/console/action-form';
import { cancelTopUpRequestAction } from './actions';

/** "Cancelar reporte" on a pending report, asked first: it is not reviewed any more and cannot be undone. */
export function CancelTopUpForm({ requestId, description }: { requestId: number; description: string }) {
  const router = useRouter();
  return (
    <ActionForm
      action={cancelTopUpRequestAction}
      hidden={{ solicitud: requestId }}
      submitLabel="Cancelar reporte"
      pendingLabel="Cancelando…"
      submitClassName="secondary"
      className="inline"
      confirmation={{
        kind: 'text',
        title: '¿Cancelar este reporte?',
        message: `${description} La administración ya no lo revisará y no se puede deshacer; si el depósito existe, puede reportarlo de nuevo con los datos correctos.`,
        confirmLabel: 'Cancelar reporte',
      }}
      onSuccess={() => router.refresh()}
    >
      {null}
    </ActionForm>
  );
}
