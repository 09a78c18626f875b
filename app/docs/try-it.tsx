'use client';

import { useState } from 'react';
import { useCredentials } from './credentials';

interface TryItProps {
  baseUrl: string;
  path: string;
  exampleBody: unknown;
}

interface Answer {
  status: number;
  contentType: string;
  requestId: string;
  body: string;
  elapsedMs: number;
}

/** Sends one real request to this deployment with the integrator's own credentials. */
export function TryIt({ baseUrl, path, exampleBody }: TryItProps) {
  const { login, token } = useCredentials();
  const [body, setBody] = useState(JSON.stringify(exampleBody, null, 2));
  const [answer, setAnswer] = useState<Answer | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);

  async function send() {
    setSending(true);
    setError(null);
    const started = performance.now();
    try {
      const response = await fetch(`${baseUrl}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-integracion-login': login, 'x-integracion-token': token },
        body,
      });
      const text = await response.text();
      const contentType = response.headers.get('content-type') ?? '';
      let shown = text;
      if (contentType.includes('application/json')) {
        try {
          shown = JSON.stringify(JSON.parse(text), null, 2);
        } catch {
          shown = text;
        }
      }
      setAnswer({
        status: response.status,
        contentType,
        requestId: response.headers.get('x-request-id') ?? '',
        body: shown,
        elapsedMs: Math.round(performance.now() - started),
      });
    } catch (failure) {
      setError(`No se pudo enviar la consulta: ${(failure as Error).message}`);
    } finally {
      setSending(false);
    }
  }

  return (
    <details className="try-it">
      <summary>Probar contra {baseUrl}</summary>
      <p className="muted">
        {login ? (
          <>
            Con las credenciales de <code>{login}</code> (arriba, en «Sus credenciales para probar»).
          </>
        ) : (
          'Sin credenciales: escríbalas arriba, en «Sus credenciales para probar».'
        )}
      </p>
      <label>
        Cuerpo (JSON)
        <textarea value={body} onChange={(event) => setBody(event.target.value)} rows={5} spellCheck={false} />
      </label>
      <p className="muted">Las consultas de catálogo se cobran a la tarifa de la integración y todas quedan registradas.</p>
      <button type="button" onClick={send} disabled={sending}>
        {sending ? 'Enviando…' : `POST ${path}`}
      </button>
      {error && <p className="error">{error}</p>}
      {answer && (
        <div className="answer" aria-live="polite">
          <p>
            <strong>HTTP {answer.status}</strong> · {answer.elapsedMs} ms · {answer.contentType || 'sin content-type'}
            {answer.requestId && <> · x-request-id <code>{answer.requestId}</code></>}
          </p>
          <pre>{answer.body}</pre>
        </div>
      )}
    </details>
  );
}
