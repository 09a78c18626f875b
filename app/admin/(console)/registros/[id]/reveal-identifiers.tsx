'use client';

import { useState } from 'react';
import { ActionForm, Field } from '@/components/console/action-form';
import { IdentifierList, nitList } from '@/components/console/identifier-list';
import type { ActionResult } from '@/lib/auth/action';

type Revealed = { nit: string | null; cui: string | null };

/**
 * "Mostrar" for support: asks for a reason (a short text or a ticket number), and shows the
 * record's identifiers as the server answers them, once the access is logged. Nothing is kept in
 * the page before that: the masked values are all the HTML holds.
 */
export function RevealIdentifiers({ recordId, reveal }: { recordId: number; reveal: (input: unknown) => Promise<ActionResult<Revealed>> }) {
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
      hidden={{ recordId }}
      submitLabel="Mostrar identificadores"
      pendingLabel="Registrando acceso…"
      // What was asked for and logged: it stays on screen, it is not a notice about an action.
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
          <span className="small">El acceso quedó registrado con tu motivo en «Accesos a datos personales».</span>
        </div>
      )}
    >
      <Field
        name="motivo"
        label="Motivo (obligatorio)"
        hint="Un texto breve o el número de ticket de soporte, por ejemplo: Ticket 4821, el integrador reclama un cobro."
        maxLength={200}
        autoFocus
        data-testid="reveal-reason"
      />
    </ActionForm>
  );
}
