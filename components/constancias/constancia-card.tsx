import type { ConstanciaSummary } from '@/lib/presentation/constancia-summary';
import { CONSTANCIA_SCOPE } from '@/lib/presentation/constancia-words';

/**
 * A query's constancia on its record page (the portal's and the console's): when it was issued, the
 * public page that verifies it, and its PDF for a reason (the PDF holds the identifiers in full: the
 * access is logged). A plain form: the browser downloads the file the route answers.
 */
export function ConstanciaCard({ constancia, reasonHint }: { constancia: ConstanciaSummary; reasonHint: string }) {
  return (
    <section className="card" aria-labelledby="constancia-titulo" data-testid="constancia-card">
      <h2 id="constancia-titulo">Constancia de consulta</h2>
      <dl className="details">
        <dt>Constancia</dt>
        <dd className="mono break-anywhere" data-testid="constancia-id">
          {constancia.id}
        </dd>
        <dt>Emitida</dt>
        <dd>{constancia.issuedAt}</dd>
        <dt>Verificación pública</dt>
        <dd>
          <a href={constancia.verificationUrl} data-testid="constancia-verification-link">
            Verificar esta constancia
          </a>
        </dd>
      </dl>
      <p className="small muted">{CONSTANCIA_SCOPE}</p>
      {constancia.held ? (
        <form method="post" action={constancia.downloadPath}>
          <label htmlFor="constancia-motivo">Motivo para descargar el PDF (queda registrado)</label>
          <input id="constancia-motivo" name="motivo" data-testid="constancia-reason" required minLength={3} maxLength={500} placeholder={reasonHint} />
          <button type="submit" data-testid="constancia-download">
            Descargar PDF
          </button>
        </form>
      ) : (
        <p className="small">Su texto ya se depuró con los registros: su hoja y sus pruebas siguen en el registro público.</p>
      )}
    </section>
  );
}
