'use client';

import { createContext, useContext, useState, type ReactNode } from 'react';
import { useActionActivity } from '@/components/console/action-activity';
import { ActionForm, Field } from '@/components/console/action-form';
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

export function ApproveTopUpForm({ requestId, title, message }: { requestId: number; title: string; message: string }) {
  const announce = useContext(AnnounceContext);
  return (
    <ActionForm
      action={approveTopUpRequestAction}
      hidden={{ solicitud: requestId }}
      submitLabel="Aprobar y acreditar"
      pendingLabel="Acreditando…"
      className="inline"
      confirmation={{ kind: 'text', title, message, confirmLabel: 'Aprobar y acreditar' }}
      onSuccess={({ notice }) => announce(notice)}
      // Said once, above the list (DecisionNotices), not also inside a card that is leaving it.
      renderSuccess={() => null}
    >
      {null}
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
