'use client';

import type { ActionResult } from '@/lib/flows/auth/action';
import type { TestOutcome } from '@/lib/reactions/alerts/test-outcome';
import { ActionForm } from './action-form';

/**
 * "Enviar aviso de prueba" (an integration's webhook, the administrators' alert channels): the
 * action waits a few seconds for the first attempt and says how it went; a failure reads as one.
 */
export function TestNoticeForm({ action, hidden, testId }: { action: (input: unknown) => Promise<ActionResult<TestOutcome>>; hidden?: Record<string, string | number>; testId: string }) {
  return (
    <div data-testid={testId}>
      <ActionForm
        action={action}
        hidden={hidden}
        submitLabel="Enviar aviso de prueba"
        pendingLabel="Enviando aviso de prueba…"
        submitClassName="secondary"
        renderSuccess={(outcome) => (
          <p className={`notice ${outcome.tone} break-anywhere`} role={outcome.tone === 'error' ? 'alert' : 'status'} data-testid="test-notice-outcome">
            {outcome.text}
          </p>
        )}
      >
        {null}
      </ActionForm>
    </div>
  );
}
