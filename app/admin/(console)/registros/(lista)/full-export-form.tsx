import { REVEAL_REASON_MAX_LENGTH } from '@/lib/surfaces/console/records';

/**
 * An administrator's export with NIT and CUI in full: asked for with a reason (a short text or a
 * ticket number), posted with the list's filters, written to "Accesos a datos personales" with
 * that reason before the first row is sent. A plain form: the file downloads
 * and the page stays.
 */
export function FullExportForm({ filters }: { filters: Array<[string, string]> }) {
  return (
    <details className="full-export" data-testid="export-full">
      <summary className="button secondary">Exportar con NIT y CUI completos</summary>
      <form method="post" action="/admin/registros/exportar" className="card">
        {filters.map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        <div className="field">
          <label htmlFor="export-reason">Motivo (obligatorio)</label>
          <input id="export-reason" name="motivo" required minLength={3} maxLength={REVEAL_REASON_MAX_LENGTH} autoComplete="off" aria-describedby="export-reason-hint" />
          <span id="export-reason-hint" className="hint">
            Un texto breve o el número de ticket. La exportación queda registrada con su motivo en «Accesos a datos personales».
          </span>
        </div>
        <div className="actions">
          <button type="submit">Descargar CSV con NIT y CUI completos</button>
        </div>
      </form>
    </details>
  );
}
