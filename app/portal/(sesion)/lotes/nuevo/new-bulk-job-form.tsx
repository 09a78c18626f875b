'use client';

import { useRouter } from 'next/navigation';
import { useRef, useState, useTransition, type FormEvent } from 'react';
import type { ActionResult } from '@/lib/surfaces/portal/action';
import { BULK_UPLOAD_MESSAGES, MAX_BULK_UPLOAD_BYTES } from '@/lib/surfaces/portal/upload-limits';
import { formatQuetzales } from '@/lib/platform/money';
import type { BulkJobEstimate } from '@/lib/surfaces/portal/bulk';
import { createPortalBulkJobAction, estimatePortalBulkJobAction } from '../actions';

type Estimate = BulkJobEstimate & { confirmation: string };

/**
 * Two steps on one form: "Calcular costo" sends the file to be read and planned (nothing is created),
 * the estimate is shown, and "Confirmar y crear el lote" sends the same file with the estimate's
 * confirmation key, the job's Idempotency-Key: sending it twice makes one job. Changing the file or
 * the catalog drops the estimate, so what is confirmed is always what was shown.
 */
export function NewBulkJobForm({ catalogs, constanciasEnabled }: { catalogs: Array<{ value: string; label: string }>; constanciasEnabled: boolean }) {
  const router = useRouter();
  const form = useRef<HTMLFormElement>(null);
  const [estimate, setEstimate] = useState<Estimate | null>(null);
  const [refusal, setRefusal] = useState<Extract<ActionResult, { ok: false }> | null>(null);
  const [pending, startTransition] = useTransition();
  const sending = useRef(false);

  function fields(): { catalogo: string; archivo: File | undefined; constancias: boolean } {
    const data = new FormData(form.current!);
    const file = data.get('archivo');
    return { catalogo: String(data.get('catalogo') ?? ''), archivo: file instanceof File && file.size > 0 ? file : undefined, constancias: data.get('constancias') === 'si' };
  }

  function run<T>(call: () => Promise<ActionResult<T>>, then: (data: T) => void) {
    if (sending.current) return;
    sending.current = true;
    setRefusal(null);
    startTransition(async () => {
      try {
        const answer = await call();
        if (answer.ok) then(answer.data);
        else setRefusal(answer);
      } finally {
        sending.current = false;
      }
    });
  }

  function calculate(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const { catalogo, archivo } = fields();
    // The proxy refuses a larger form before the server reads it, in words of its own: said here first.
    if (archivo && archivo.size > MAX_BULK_UPLOAD_BYTES) {
      setRefusal({ ok: false, message: BULK_UPLOAD_MESSAGES.tooLarge, fieldErrors: { archivo: BULK_UPLOAD_MESSAGES.tooLarge } });
      return;
    }
    run(() => estimatePortalBulkJobAction({ catalogo, archivo }), setEstimate);
  }

  function confirm() {
    if (!estimate) return;
    const { catalogo, archivo, constancias } = fields();
    run(
      () => createPortalBulkJobAction({ catalogo, archivo, confirmacion: estimate.confirmation, constancias }),
      (data) => router.push(data.path),
    );
  }

  const errors = refusal?.fieldErrors ?? {};
  const count = (value: number) => value.toLocaleString('es-GT');
  return (
    <form
      ref={form}
      className="stack"
      onSubmit={calculate}
      onChange={() => {
        setEstimate(null);
        setRefusal(null);
      }}
      noValidate
    >
      <div className="field">
        <label htmlFor="lote-catalogo">Catálogo</label>
        <select id="lote-catalogo" name="catalogo" defaultValue={catalogs[0]?.value} aria-invalid={Boolean(errors.catalogo)} aria-describedby={errors.catalogo ? 'lote-catalogo-error' : undefined} data-testid="bulk-catalog">
          {catalogs.map((catalog) => (
            <option key={catalog.value} value={catalog.value}>
              {catalog.label}
            </option>
          ))}
        </select>
        {errors.catalogo && (
          <span className="error" id="lote-catalogo-error">
            {errors.catalogo}
          </span>
        )}
      </div>
      <div className="field">
        <label htmlFor="lote-archivo">Archivo CSV</label>
        <input
          id="lote-archivo"
          name="archivo"
          type="file"
          accept=".csv,.txt,text/csv,text/plain"
          required
          aria-invalid={Boolean(errors.archivo)}
          aria-describedby={['lote-archivo-ayuda', errors.archivo && 'lote-archivo-error'].filter(Boolean).join(' ')}
          data-testid="bulk-file"
        />
        <span className="hint" id="lote-archivo-ayuda">
          Un NIT o CUI por línea, o en la primera columna; puede tener una línea de encabezado. Hasta 10,000 identificadores y 1 MB.
        </span>
        {errors.archivo && (
          <span className="error" id="lote-archivo-error">
            {errors.archivo}
          </span>
        )}
      </div>
      {constanciasEnabled && (
        <div className="field">
          <label>
            <input type="checkbox" name="constancias" value="si" aria-describedby="lote-constancias-ayuda" data-testid="bulk-constancias" /> Pedir la constancia de
            consulta de cada identificador encontrado
          </label>
          <span className="hint" id="lote-constancias-ayuda">
            La respuesta del registro firmada por el servicio, para el expediente de su cliente: la descarga de resultados trae su enlace en cada fila encontrada.
          </span>
        </div>
      )}
      <div className="actions">
        <button type="submit" className="secondary" disabled={pending} data-testid="bulk-estimate">
          {pending && !estimate ? 'Calculando…' : 'Calcular costo'}
        </button>
      </div>
      {refusal && (
        <p className="notice error" role="alert">
          {refusal.message}
        </p>
      )}
      {estimate && (
        <section className="card" aria-labelledby="lote-estimado" data-testid="bulk-estimate-result">
          <h2 id="lote-estimado">Antes de crear el lote</h2>
          <dl className="details">
            <dt>Se consultarán</dt>
            <dd data-testid="estimate-to-run">
              {count(estimate.toRun)} {estimate.toRun === 1 ? 'identificador válido' : 'identificadores válidos'}, sin repetir
            </dd>
            <dt>Se apartan sin costo</dt>
            <dd data-testid="estimate-set-aside">
              {count(estimate.invalid)} {estimate.invalid === 1 ? 'inválido' : 'inválidos'} y {count(estimate.duplicates)}{' '}
              {estimate.duplicates === 1 ? 'repetido' : 'repetidos'}, de {count(estimate.total)} en el archivo
            </dd>
            <dt>Costo máximo</dt>
            <dd data-testid="estimate-max-cost">
              {formatQuetzales(estimate.maxCostCentavos)} ({count(estimate.toRun)} × {formatQuetzales(estimate.tariffCentavos)})
            </dd>
            <dt>Saldo actual</dt>
            <dd data-testid="estimate-balance">{formatQuetzales(estimate.balanceCentavos)}</dd>
          </dl>
          <p className="small">
            Solo se cobran los que se encuentran, a la tarifa de su integración; los no encontrados, los apartados, los que la fuente rechaza (por ejemplo, un RTU que pide la fecha de nacimiento) y los que fallan en la fuente no se cobran.
            {estimate.maxCostCentavos > estimate.balanceCentavos &&
              ' Si el saldo se acaba, el lote queda en pausa y sigue solo cuando la administración acredite una recarga.'}
          </p>
          <div className="actions">
            <button type="button" onClick={confirm} disabled={pending || estimate.toRun === 0} data-testid="bulk-confirm">
              {pending ? 'Creando…' : 'Confirmar y crear el lote'}
            </button>
          </div>
          {estimate.toRun === 0 && <p className="notice warn">Ningún identificador del archivo es válido: no hay nada que consultar.</p>}
        </section>
      )}
    </form>
  );
}
