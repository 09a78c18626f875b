'use client';

import { useRouter } from 'next/navigation';
import { useRef, useState, useTransition, type FormEvent } from 'react';
import type { ActionResult } from '@/lib/surfaces/portal/action';
import { BULK_UPLOAD_MESSAGES, MAX_BULK_UPLOAD_BYTES } from '@/lib/surfaces/portal/upload-limits';
import { formatQuetzales } from '@/lib/platform/money';
import type { WatchListEstimate } from '@/lib/surfaces/portal/watch-lists';
import { createPortalWatchListAction, estimatePortalWatchListAction } from '../actions';

type Estimate = WatchListEstimate & { confirmation: string };
type Option = { value: string; label: string };

/**
 * Two steps on one form, as "Nuevo lote": "Calcular costo" reads and plans the file (nothing is
 * saved), the estimate is shown, and "Confirmar y crear la vigilancia" sends the same fields with the
 * estimate's confirmation as the sending's key: sent twice, it saves one list. Changing any field
 * drops the estimate, so what is confirmed is always what was shown.
 */
export function NewWatchListForm({ catalogs, schedules, constanciasEnabled }: { catalogs: Option[]; schedules: Option[]; constanciasEnabled: boolean }) {
  const router = useRouter();
  const form = useRef<HTMLFormElement>(null);
  const [estimate, setEstimate] = useState<Estimate | null>(null);
  const [refusal, setRefusal] = useState<Extract<ActionResult, { ok: false }> | null>(null);
  const [pending, startTransition] = useTransition();
  const sending = useRef(false);

  function fields() {
    const data = new FormData(form.current!);
    const file = data.get('archivo');
    return {
      nombre: String(data.get('nombre') ?? ''),
      catalogo: String(data.get('catalogo') ?? ''),
      frecuencia: String(data.get('frecuencia') ?? ''),
      archivo: file instanceof File && file.size > 0 ? file : undefined,
      constancias: data.get('constancias') === 'si',
    };
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
    const { nombre, catalogo, archivo } = fields();
    if (nombre.trim() === '') {
      setRefusal({ ok: false, message: 'Escriba un nombre para reconocerla.', fieldErrors: { nombre: 'Escriba un nombre para reconocerla.' } });
      return;
    }
    // The proxy refuses a larger form before the server reads it, in words of its own: said here first.
    if (archivo && archivo.size > MAX_BULK_UPLOAD_BYTES) {
      setRefusal({ ok: false, message: BULK_UPLOAD_MESSAGES.tooLarge, fieldErrors: { archivo: BULK_UPLOAD_MESSAGES.tooLarge } });
      return;
    }
    run(() => estimatePortalWatchListAction({ catalogo, archivo }), setEstimate);
  }

  function confirm() {
    if (!estimate) return;
    run(
      () => createPortalWatchListAction({ ...fields(), envio: estimate.confirmation }),
      (data) => router.push(data.path),
    );
  }

  const errors = refusal?.fieldErrors ?? {};
  const count = (value: number) => value.toLocaleString('es-GT');
  const described = (id: string, hint?: string) => [hint, errors[id] && `vigilancia-${id}-error`].filter(Boolean).join(' ') || undefined;
  const fieldError = (id: string) =>
    errors[id] && (
      <span className="error" id={`vigilancia-${id}-error`}>
        {errors[id]}
      </span>
    );
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
        <label htmlFor="vigilancia-nombre">Nombre</label>
        <input
          id="vigilancia-nombre"
          name="nombre"
          required
          maxLength={100}
          autoComplete="off"
          aria-invalid={Boolean(errors.nombre)}
          aria-describedby={described('nombre', 'vigilancia-nombre-ayuda')}
          data-testid="watch-name"
        />
        <span className="hint" id="vigilancia-nombre-ayuda">
          Para reconocerla, por ejemplo «Proveedores». No escriba NIT ni nombres de personas.
        </span>
        {fieldError('nombre')}
      </div>
      <div className="field">
        <label htmlFor="vigilancia-catalogo">Catálogo</label>
        <select id="vigilancia-catalogo" name="catalogo" defaultValue={catalogs[0]?.value} aria-invalid={Boolean(errors.catalogo)} aria-describedby={described('catalogo', 'vigilancia-catalogo-ayuda')} data-testid="watch-catalog">
          {catalogs.map((catalog) => (
            <option key={catalog.value} value={catalog.value}>
              {catalog.label}
            </option>
          ))}
        </select>
        <span className="hint" id="vigilancia-catalogo-ayuda">
          Omisos vigila si es omiso, si tiene cobro coactivo y su estado; RTU vigila su estado en el RTU.
        </span>
        {fieldError('catalogo')}
      </div>
      <div className="field">
        <label htmlFor="vigilancia-frecuencia">Frecuencia</label>
        <select id="vigilancia-frecuencia" name="frecuencia" defaultValue={schedules[0]?.value} aria-invalid={Boolean(errors.frecuencia)} aria-describedby={described('frecuencia', 'vigilancia-frecuencia-ayuda')} data-testid="watch-schedule">
          {schedules.map((schedule) => (
            <option key={schedule.value} value={schedule.value}>
              {schedule.label}
            </option>
          ))}
        </select>
        <span className="hint" id="vigilancia-frecuencia-ayuda">
          Desde hoy: mensual, el mismo día de cada mes; semanal, cada 7 días.
        </span>
        {fieldError('frecuencia')}
      </div>
      {constanciasEnabled && (
        <div className="field">
          <label>
            <input type="checkbox" name="constancias" value="si" aria-describedby="vigilancia-constancias-ayuda" data-testid="watch-constancias" /> Pedir la
            constancia de consulta de cada NIT encontrado en cada ejecución
          </label>
          <span className="hint" id="vigilancia-constancias-ayuda">
            La respuesta del registro firmada por el servicio, para el expediente de su cliente: cada cambio trae la de la respuesta que lo mostró.
          </span>
        </div>
      )}
      <div className="field">
        <label htmlFor="vigilancia-archivo">Archivo CSV</label>
        <input
          id="vigilancia-archivo"
          name="archivo"
          type="file"
          accept=".csv,.txt,text/csv,text/plain"
          required
          aria-invalid={Boolean(errors.archivo)}
          aria-describedby={described('archivo', 'vigilancia-archivo-ayuda')}
          data-testid="watch-file"
        />
        <span className="hint" id="vigilancia-archivo-ayuda">
          Un NIT por línea, o en la primera columna; puede tener una línea de encabezado. Hasta 10,000 NIT y 1 MB.
        </span>
        {fieldError('archivo')}
      </div>
      <div className="actions">
        <button type="submit" className="secondary" disabled={pending} data-testid="watch-estimate">
          {pending && !estimate ? 'Calculando…' : 'Calcular costo'}
        </button>
      </div>
      {refusal && (
        <p className="notice error" role="alert">
          {refusal.message}
        </p>
      )}
      {estimate && (
        <section className="card" aria-labelledby="vigilancia-estimado" data-testid="watch-estimate-result">
          <h2 id="vigilancia-estimado">Antes de crear la vigilancia</h2>
          <dl className="details">
            <dt>Se vigilarán</dt>
            <dd data-testid="watch-estimate-to-run">
              {count(estimate.toRun)} {estimate.toRun === 1 ? 'NIT válido' : 'NIT válidos'}, sin repetir
            </dd>
            <dt>Se apartan sin costo</dt>
            <dd data-testid="watch-estimate-set-aside">
              {count(estimate.invalid)} {estimate.invalid === 1 ? 'inválido' : 'inválidos'} y {count(estimate.duplicates)}{' '}
              {estimate.duplicates === 1 ? 'repetido' : 'repetidos'}, de {count(estimate.total)} en el archivo; no se guardan
            </dd>
            <dt>Costo máximo de cada ejecución</dt>
            <dd data-testid="watch-estimate-max-cost">
              {formatQuetzales(estimate.maxRunCostCentavos)} ({count(estimate.toRun)} × {formatQuetzales(estimate.tariffCentavos)})
            </dd>
            <dt>Saldo actual</dt>
            <dd data-testid="watch-estimate-balance">{formatQuetzales(estimate.balanceCentavos)}</dd>
          </dl>
          <p className="small" data-testid="watch-estimate-charging">
            Cada ejecución es un lote y se cobra solo por los NIT que se encuentran, a la tarifa de su integración; los no encontrados y los que fallan en la
            fuente no se cobran. La primera empieza al crearla y es la base: no reporta cambios.
            {estimate.maxRunCostCentavos > estimate.balanceCentavos &&
              ' Si el saldo se acaba, la ejecución queda en pausa y sigue solo cuando la administración acredite una recarga.'}
          </p>
          <div className="actions">
            <button type="button" onClick={confirm} disabled={pending || estimate.toRun === 0} data-testid="watch-confirm">
              {pending ? 'Creando…' : 'Confirmar y crear la vigilancia'}
            </button>
          </div>
          {estimate.toRun === 0 && <p className="notice warn">Ningún NIT del archivo es válido: no hay nada que vigilar.</p>}
        </section>
      )}
    </form>
  );
}
