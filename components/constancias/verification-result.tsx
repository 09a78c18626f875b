import type { VerificationBody } from '@/lib/presentation/constancia-words';
import { answerWords, CONSTANCIA_PROBLEM_WORDS, CONSTANCIA_SCOPE, constanciaFacts, flattenedFields } from '@/lib/presentation/constancia-words';
import type { ConstanciaPayload } from '@/lib/core/constancias/payload';
import { formatDateTime } from '@/lib/platform/time/guatemala-time';

/**
 * What /verificar says of a receipt, in Spanish: valid or not and why, what was asked, what the
 * registry answered and when, and where it stands in the public log. The same words whether the
 * page verified it (a QR code's address) or the examiner pasted it (POST /api/constancias/verificar).
 */
export function VerificationResult({ result }: { result: VerificationBody }) {
  const payload = result.constancia as ConstanciaPayload | null;
  return (
    <section className="card" aria-live="polite" data-testid="verification-result" data-valid={result.valida ? 'true' : 'false'}>
      <h2 data-testid="verification-verdict">{result.valida ? 'Constancia válida' : 'La constancia no es válida'}</h2>
      {!result.valida && <p data-testid="verification-reason">{result.motivo ? CONSTANCIA_PROBLEM_WORDS[result.motivo] : 'No se pudo verificar.'}</p>}
      {result.valida && payload && (
        <>
          <p>
            Firmada por el servicio con la clave {result.clave?.kid}, que firma desde el {keyTime(result.clave?.firmaDesde)}
            {result.clave?.firmaHasta ? ` hasta el ${keyTime(result.clave.firmaHasta)}` : ''}. {answerWords(payload.respuesta.estado)}
          </p>
          <dl className="details">
            {constanciaFacts(payload).map(([label, value]) => (
              <Fact key={label} label={label} value={value} />
            ))}
          </dl>
          <h3>Lo que se consultó</h3>
          <dl className="details">
            {flattenedFields(payload.solicitud.cuerpo).map(([label, value]) => (
              <Fact key={label} label={label} value={value} />
            ))}
          </dl>
          <h3>Lo que respondió el registro</h3>
          <dl className="details">
            {flattenedFields(answerData(payload)).map(([label, value]) => (
              <Fact key={label} label={label} value={value} />
            ))}
          </dl>
          <h3>Registro público</h3>
          {result.registro?.estado === 'incluida' ? (
            <p data-testid="verification-log">
              Incluida en el registro: hoja {result.registro.indice} de la cabeza firmada de {result.registro.tamano} hojas (prueba de inclusión de {result.registro.prueba?.length ?? 0}{' '}
              hashes, verificada).
              {result.registro.sello
                ? ` Sellada en el tiempo por una autoridad externa (RFC 3161) el ${formatDateTime(result.registro.sello.selladaEn)} (hora de Guatemala), en la cabeza de ${result.registro.sello.tamano} hojas.`
                : ' Todavía sin sello de tiempo externo: se sella una vez al día.'}
            </p>
          ) : (
            <p data-testid="verification-log">En el registro, a la espera de la próxima cabeza firmada (se firma una cada pocos minutos).</p>
          )}
        </>
      )}
      <p className="small muted">{CONSTANCIA_SCOPE}</p>
    </section>
  );
}

/** A key's window as a person reads it: Guatemala's time. */
function keyTime(iso: string | undefined): string {
  return iso ? `${formatDateTime(iso)} (hora de Guatemala)` : '';
}

function Fact({ label, value }: { label: string; value: string }) {
  return (
    <>
      <dt>{label}</dt>
      <dd className="break-anywhere">{value}</dd>
    </>
  );
}

function answerData(payload: ConstanciaPayload): unknown {
  const body = payload.respuesta.cuerpo;
  return typeof body === 'object' && body !== null && 'data' in body ? (body as { data: unknown }).data : body;
}
