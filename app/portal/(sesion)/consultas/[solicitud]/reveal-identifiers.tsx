'use client';

import { useState } from 'react';
import { ActionForm, Field } from '@/components/console/action-form';
import { IdentifierList, nitList } from '@/components/console/identifier-list';
import type { ActionResult } from '@/lib/auth/action';

type Revealed = { nit: string | null; cui: string | null };

/**
 * "Mostrar" in the portal: asks for a reason and shows the record's identifiers as the server
 * answers them, once the access is logged. Until then the page holds only the masked values.
 */
export function RevealPortalIdentifiers({ requestId, reveal }: { requestId: string; reveal: (input: unknown) => Promise<ActionResult<Revealed>> }) {
  const [asking, setAsking] = useState(false);
  if (!asking) {
    return (
      <button type="button" className="secondary" onClick={() => setAsking(true)} data-testid="reveal-start">
        Mostrar
      </button>
    );
  }
  return (
    <ActionForm
      action={reveal}
      hidden={{ solicitud: requestId }}
      submitLabel="Mostrar identificadores"
      pendingLabel="Registrando acceso…"
      successStays
      renderSuccess={(revealed) => (
        <div className="notice info" role="status" data-testid="revealed-identifiers">
          <dl className="details">
            <dt>NIT</dt>
            <dd className="mono" data-testid="revealed-nit">
              {revealed.nit ? <IdentifierList identifiers={nitList(revealed.nit)} /> : '—'}
            </dd>
            <dt>CUI</dt>
            <dd className="mono" data-testid="revealed-cui">
              {revealed.cui ?? '—'}
            </dd>
          </dl>
          <span className="small">El acceso quedó registrado con tu nombre y tu motivo; la administración del servicio puede verlo.</span>
        </div>
      )}
    >
      <Field
        name="motivo"
        label="Motivo (obligatorio)"
        hint="Un texto breve, por ejemplo: conciliar un cobro con nuestro sistema."
        maxLength={200}
        autoFocus
        data-testid="reveal-reason"
      />
    </ActionForm>
  );
}
