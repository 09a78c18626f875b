'use client';

import { useState, useTransition } from 'react';
import { ActionForm, Field } from '@/components/console/action-form';
import { useActionActivity } from '@/components/console/action-activity';
import { SecretReveal } from '@/components/console/secret-reveal';
import type { TestOutcome } from '@/lib/reactions/alerts/test-outcome';
import type { ActionResult } from '@/lib/flows/auth/action';

type Action<T> = (input: unknown) => Promise<ActionResult<T>>;

// Shared by the console (an administrator names the integration: integrationId) and the portal (the
// session's integration: no id sent, the server never reads one).
const idOf = (integrationId?: number) => (integrationId === undefined ? undefined : { integrationId });

/** Setting the webhook: a new signing secret each time, shown once. */
export function WebhookForm({ integrationId, hasWebhook, save }: { integrationId?: number; hasWebhook: boolean; save: Action<{ secret: string; saved: string }> }) {
  return (
    <ActionForm
      action={save}
      hidden={idOf(integrationId)}
      submitLabel={hasWebhook ? 'Cambiar webhook' : 'Guardar webhook'}
      pendingLabel="Guardando…"
      resetOnSuccess
      successStays
      confirmation={
        hasWebhook
          ? { kind: 'text', title: '¿Cambiar el webhook?', message: 'Se genera un secreto de firma nuevo; el anterior deja de valer de inmediato.', confirmLabel: 'Cambiar webhook' }
          : undefined
      }
      renderSuccess={({ secret, saved }) => (
        <>
          <p className="notice success break-anywhere" data-testid="webhook-saved">
            Webhook guardado: <span className="mono">{saved}</span>
          </p>
          <SecretReveal title="Secreto de firma del webhook" secret={secret} testId="webhook-secret" />
        </>
      )}
    >
      <Field name="url" label="URL del webhook" hint="Solo https:// a una dirección pública. Cada aviso llega firmado (X-Alerta-Firma)." type="url" maxLength={2000} data-testid="webhook-url" />
    </ActionForm>
  );
}

export function RemoveWebhookForm({ integrationId, remove }: { integrationId?: number; remove: Action<undefined> }) {
  return (
    <ActionForm
      action={remove}
      hidden={idOf(integrationId)}
      submitLabel="Quitar webhook"
      pendingLabel="Quitando…"
      submitClassName="danger secondary"
      confirmation={{ kind: 'text', title: '¿Quitar el webhook?', message: 'Los avisos dejan de enviarse a esa URL; los correos siguen.', confirmLabel: 'Quitar webhook' }}
    >
      {null}
    </ActionForm>
  );
}

export interface SwitchRow {
  recipient: string;
  kind: string;
  label: string;
  enabled: boolean;
}

/** One switch per recipient and kind; each press saves at once and is audited. No setEnabled: read only. */
export function NotificationSwitches({ integrationId, rows, setEnabled }: { integrationId?: number; rows: SwitchRow[]; setEnabled?: Action<unknown> }) {
  const [state, setState] = useState(() => Object.fromEntries(rows.map((row) => [`${row.recipient}:${row.kind}`, row.enabled])));
  const [error, setError] = useState<string | null>(null);
  // A press is an action of its own: the success notices of the page's forms are about earlier ones.
  const announceAction = useActionActivity(() => {});
  const [pending, startTransition] = useTransition();

  function toggle(row: SwitchRow) {
    if (!setEnabled) return;
    const key = `${row.recipient}:${row.kind}`;
    const enabled = !state[key];
    setError(null);
    announceAction();
    setState((current) => ({ ...current, [key]: enabled }));
    startTransition(async () => {
      const result = await setEnabled({ ...idOf(integrationId), recipient: row.recipient, kind: row.kind, enabled: String(enabled) });
      if (!result.ok) {
        setState((current) => ({ ...current, [key]: !enabled }));
        setError(result.message);
      }
    });
  }

  return (
    <div>
      {rows.map((row) => {
        const key = `${row.recipient}:${row.kind}`;
        const labelId = `notification-${row.recipient}-${row.kind}`;
        return (
          <div className="switch-row" key={key}>
            <div id={labelId}>{row.label}</div>
            <button
              type="button"
              role="switch"
              className="switch"
              aria-checked={state[key]}
              aria-labelledby={labelId}
              data-testid={`notification-switch-${row.recipient}-${row.kind}`}
              disabled={!setEnabled || pending}
              onClick={() => toggle(row)}
            />
          </div>
        );
      })}
      {error && (
        <p className="notice error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

/**
 * "Reenviar" on a notice sent to the webhook: the same notice again, with the same id (the receiver
 * drops a copy it already has); the action waits a few seconds for its first attempt and says how it went.
 */
export function ResendForm({ integrationId, deliveryId, resend }: { integrationId?: number; deliveryId: number; resend: Action<TestOutcome> }) {
  return (
    <ActionForm
      action={resend}
      hidden={{ ...idOf(integrationId), entrega: deliveryId }}
      submitLabel="Reenviar"
      pendingLabel="Reenviando…"
      submitClassName="secondary"
      renderSuccess={(outcome) => (
        <p className={`notice ${outcome.tone} break-anywhere`} role={outcome.tone === 'error' ? 'alert' : 'status'} data-testid="resend-outcome">
          Reenviado con el mismo id. {outcome.text}
        </p>
      )}
    >
      {null}
    </ActionForm>
  );
}
