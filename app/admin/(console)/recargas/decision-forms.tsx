'use client';

import { createContext, useContext, useState, type ReactNode } from 'react';
import { useActionActivity } from '@/components/console/action-activity';
import { ActionForm, Field } from '@/components/console/action-form';
import { formatQuetzales } from '@/lib/platform/money';
import { APPROVAL_NOTE_MAX_LENGTH } from '@/lib/surfaces/console/top-up-decision';
import { approveTopUpRequestAction, rejectTopUpRequestAction } from './actions';

// A decided request leaves the list with its forms: the notice of its decision would go with it,
// unread. The page shows it above the list instead, until the next action starts.
const AnnounceContext = createContext<(notice: string) => void>(() => {});

export function DecisionNotices({ children }: { children: ReactNode }) {
  const [notice, setNotice] = useState<string | null>(null);
  useActionActivity(() => setNotice(null));
  return (
    <AnnounceContext.Provider value={setNotice}>
      {notice && (
        <p className="notice success" role="status" data-testid="top-up-notice">
          {notice}
        </p>
      )}
      {children}
    </AnnounceContext.Provider>
  );
}

/**
 * "Aprobar y acreditar": the amount starts as reported; another amount (what the bank's statement
 * shows) needs a note, which the integration reads beside both amounts.
 */
export function ApproveTopUpForm({ requestId, nombre, reportedCentavos, deposit }: { requestId: number; nombre: string; reportedCentavos: number; deposit: string }) {
  const announce = useContext(AnnounceContext);
  return (
    <ActionForm
      action={approveTopUpRequestAction}
      hidden={{ solicitud: requestId }}
      submitLabel="Aprobar y acreditar"
      pendingLabel="Acreditando…"
      confirmation={{ kind: 'top_up_request', nombre, reportedCentavos, deposit }}
      onSuccess={({ notice }) => announce(notice)}
      // Said once, above the list (DecisionNotices), not also inside a card that is leaving it.
      renderSuccess={() => null}
    >
      <Field
        name="monto"
        label="Monto a acreditar (Q)"
        hint="El reportado; cámbielo si el estado de cuenta bancario muestra otro."
        defaultValue={formatQuetzales(reportedCentavos).replace('Q ', '')}
        inputMode="decimal"
        autoComplete="off"
        required
        data-testid="top-up-approve-amount"
      />
      <Field
        name="nota"
        label="Nota (obligatoria si cambia el monto)"
        hint="La integración la leerá junto a los dos montos."
        maxLength={APPROVAL_NOTE_MAX_LENGTH}
        autoComplete="off"
        data-testid="top-up-approve-note"
      />
    </ActionForm>
  );
}

export function RejectTopUpForm({ requestId }: { requestId: number }) {
  const announce = useContext(AnnounceContext);
  return (
    <ActionForm
      action={rejectTopUpRequestAction}
      hidden={{ solicitud: requestId }}
      submitLabel="Rechazar"
      pendingLabel="Rechazando…"
      submitClassName="secondary"
      onSuccess={({ notice }) => announce(notice)}
      // Said once, above the list (DecisionNotices), not also inside a card that is leaving it.
      renderSuccess={() => null}
    >
      <Field name="motivo" label="Motivo del rechazo" hint="La integración lo leerá en su portal." maxLength={500} autoComplete="off" data-testid="top-up-reject-reason" />
    </ActionForm>
  );
}
