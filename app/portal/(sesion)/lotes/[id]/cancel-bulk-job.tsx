'use client';

import { useRouter } from 'next/navigation';
import { ActionForm } from '@/components/console/action-form';
import { cancelPortalBulkJobAction } from '../actions';

/** "Cancelar lote", asked first: what is pending is never run nor charged, and it cannot be undone. */
export function CancelBulkJob({ publicId }: { publicId: string }) {
  const router = useRouter();
  return (
    <section className="card" aria-labelledby="lote-cancelar">
      <h2 id="lote-cancelar">Cancelar</h2>
      <p className="small muted">Lo pendiente deja de consultarse y no se cobra; lo ya consultado queda en los resultados.</p>
      <ActionForm
        action={cancelPortalBulkJobAction}
        hidden={{ lote: publicId }}
        submitLabel="Cancelar lote"
        pendingLabel="Cancelando…"
        submitClassName="danger"
        confirmation={{
          kind: 'text',
          title: '¿Cancelar este lote?',
          message: 'Los identificadores pendientes no se consultarán ni se cobrarán. No se puede deshacer: para consultarlos después cree un lote nuevo.',
          confirmLabel: 'Cancelar lote',
        }}
        onSuccess={() => router.refresh()}
      >
        {null}
      </ActionForm>
    </section>
  );
}
