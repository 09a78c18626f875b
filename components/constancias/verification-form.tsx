'use client';

import { useState } from 'react';
import type { VerificationBody } from '@/lib/presentation/constancia-words';
import { VerificationResult } from './verification-result';

/** Paste a receipt: the page asks POST /api/constancias/verificar and shows its verdict. */
export function VerificationForm() {
  const [result, setResult] = useState<VerificationBody | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function verify(form: FormData) {
    setPending(true);
    setProblem(null);
    try {
      const answer = await fetch('/api/constancias/verificar', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ constancia: String(form.get('constancia') ?? '').trim() }),
      });
      if (answer.status === 429) setProblem('Demasiadas verificaciones desde su dirección. Espere unos minutos y vuelva a intentarlo.');
      else if (!answer.ok) setProblem('Pegue el texto completo de la constancia (tres partes separadas por puntos).');
      else setResult((await answer.json()) as VerificationBody);
    } catch {
      setProblem('No se pudo contactar al servicio. Revise su conexión y vuelva a intentarlo.');
    } finally {
      setPending(false);
    }
  }

  return (
    <>
      <form action={verify} className="card">
        <label htmlFor="constancia">Pegue el texto de la constancia (el JWS que la respuesta o el PDF traen)</label>
        <textarea id="constancia" name="constancia" rows={6} required className="mono" data-testid="verification-input" />
        <button type="submit" disabled={pending} data-testid="verification-submit">
          {pending ? 'Verificando…' : 'Verificar'}
        </button>
        {problem && (
          <p role="alert" data-testid="verification-problem">
            {problem}
          </p>
        )}
      </form>
      {result && <VerificationResult result={result} />}
    </>
  );
}
