'use client';

import { useState } from 'react';
import { ActionForm, Field } from '@/components/console/action-form';
import { IdentifierList, nitList } from '@/components/console/identifier-list';
import type { ActionResult } from '@/lib/flows/auth/action';

type Revealed = { nit: string | null; cui: string | null };

interface RevealIdentifiersProps {
  /** The realm's server action: it checks who may see which record, logs the access, then answers. */
  reveal: (input: unknown) => Promise<ActionResult<Revealed>>;
  /** What names the record to the action (the console's record id, the portal's request id). */
  hidden: Record<string, string | number>;
  /** Under the reason: what a good reason looks like for these readers. */
  reasonHint: string;
  /** Under the identifiers: who can see the access that was just logged. */
  loggedNote: string;
}

/**
 * "Mostrar", the console's and the portal's: asks for a reason, and shows the record's identifiers
 * as the server answers them, once the access is logged. Nothing is kept in the page before that:
 * the masked values are all the HTML holds.
 */
export function RevealIdentifiers({ reveal, hidden, reasonHint, loggedNote }: RevealIdentifiersProps) {
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
      hidden={hidden}
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
          <span className="small">{loggedNote}</span>
        </div>
      )}
    >
      <Field name="motivo" label="Motivo (obligatorio)" hint={reasonHint} maxLength={200} autoFocus data-testid="reveal-reason" />
    </ActionForm>
  );
}
