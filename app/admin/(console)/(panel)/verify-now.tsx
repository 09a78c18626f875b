'use client';

import { useRouter } from 'next/navigation';
import { useEffect } from 'react';
import { ActionForm, Field } from '@/components/console/action-form';
import type { ActionResult } from '@/lib/surfaces/console/action';
import { useIntegrationSuggestions, type SuggestIntegrations } from '../_components/integration-suggestions';

interface VerifyNowFormProps {
  start: (input: unknown) => Promise<ActionResult<{ started: boolean; runId: number | null }>>;
  suggest: SuggestIntegrations;
}

/**
 * "Verificar ahora": all integrations, or the one typed in the field. There can be thousands, so
 * the field suggests the few whose name contains what was typed instead of listing them all.
 */
export function VerifyNowForm({ start, suggest }: VerifyNowFormProps) {
  const router = useRouter();
  const { inputProps, datalist } = useIntegrationSuggestions(suggest);

  return (
    <ActionForm action={start} submitLabel="Verificar ahora" pendingLabel="Iniciando…" className="stack verify-now" onSuccess={() => router.refresh()}>
      <Field
        name="integracion"
        label="Integración"
        hint="Vacío: todas. Escriba parte del nombre y elija de la lista, o su número."
        placeholder="Todas las integraciones"
        {...inputProps}
      />
      {datalist}
    </ActionForm>
  );
}

/** While a run is under way, the page asks the server again every two seconds; it stops once the run is over (this is no longer rendered). */
export function RefreshWhileRunning({ everyMs = 2_000 }: { everyMs?: number }) {
  const router = useRouter();
  useEffect(() => {
    const timer = setInterval(() => router.refresh(), everyMs);
    return () => clearInterval(timer);
  }, [router, everyMs]);
  return null;
}
