'use client';

import { useState } from 'react';
import { ActionForm, Field } from '@/components/console/action-form';
import { revealPortalWatchListChangeAction } from '../actions';

/**
 * "Mostrar NIT y nombre" in a change's row: asks for a reason and shows the NIT and the taxpayer's name as the
 * server answers them, once the access is logged (as Consultas' reveal). Until then the row holds
 * only the masked NIT.
 */
export function RevealChange({ publicId, changeKey }: { publicId: string; changeKey: string }) {
  const [asking, setAsking] = useState(false);
  if (!asking) {
    return (
      <button type="button" className="secondary" onClick={() => setAsking(true)} data-testid="watch-change-reveal">
        Mostrar NIT y nombre
      </button>
    );
  }
  return (
    <ActionForm
      action={revealPortalWatchListChangeAction}
      hidden={{ vigilancia: publicId, cambio: changeKey }}
      submitLabel="Mostrar NIT y nombre"
      pendingLabel="Registrando acceso…"
      successStays
      renderSuccess={(revealed) => (
        <div className="notice info" role="status" data-testid="watch-change-revealed">
          <dl className="details">
            <dt>NIT</dt>
            <dd className="mono" data-testid="watch-change-revealed-nit">
              {revealed.nit}
            </dd>
            <dt>Nombre</dt>
            <dd data-testid="watch-change-revealed-name">{revealed.nombre ?? 'Sin nombre: ningún resultado guardado lo trae'}</dd>
          </dl>
          <span className="small">El acceso quedó registrado con su nombre y su motivo; la administración del servicio puede verlo.</span>
        </div>
      )}
    >
      <Field name="motivo" label="Motivo (obligatorio)" hint="Un texto breve, por ejemplo: revisar un proveedor que pasó a omiso." maxLength={200} autoFocus data-testid="watch-change-reason" />
    </ActionForm>
  );
}
