'use client';

import { useRouter } from 'next/navigation';
import { useEffect, useId, useRef, useState } from 'react';
import { ActionForm, Field } from '@/components/console/action-form';
import type { ActionResult } from '@/lib/auth/action';

type Suggestion = { id: number; nombre: string };

interface VerifyNowFormProps {
  start: (input: unknown) => Promise<ActionResult<{ started: boolean; runId: number | null }>>;
  suggest: (input: unknown) => Promise<ActionResult<Suggestion[]>>;
}

/**
 * "Verificar ahora": all integrations, or the one typed in the field. There can be thousands, so
 * the field suggests the few whose name contains what was typed instead of listing them all.
 */
export function VerifyNowForm({ start, suggest }: VerifyNowFormProps) {
  const router = useRouter();
  const listId = useId();
  const [suggestions, setSuggestions] = useState<Suggestion[]>([]);
  const asked = useRef(0);

  async function lookUp(text: string) {
    const ticket = ++asked.current;
    // A suggestion picked from the list is already a complete answer.
    if (text.trim().length < 2 || /\(n\.º \d+\)$/.test(text)) return setSuggestions([]);
    const answer = await suggest({ texto: text });
    // Only the answer to the latest keystroke counts.
    if (ticket === asked.current && answer.ok) setSuggestions(answer.data);
  }

  return (
    <ActionForm action={start} submitLabel="Verificar ahora" pendingLabel="Iniciando…" className="stack verify-now" onSuccess={() => router.refresh()}>
      <Field
        name="integracion"
        label="Integración"
        hint="Vacío: todas. Escribe parte del nombre y elige de la lista, o su número."
        list={listId}
        autoComplete="off"
        placeholder="Todas las integraciones"
        onChange={(event) => void lookUp(event.currentTarget.value)}
      />
      <datalist id={listId}>
        {suggestions.map((suggestion) => (
          <option key={suggestion.id} value={`${suggestion.nombre} (n.º ${suggestion.id})`} />
        ))}
      </datalist>
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
