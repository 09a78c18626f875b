// /estado - the public status of the sources: no sign-in, in Spanish, readable on a phone. The same
// status GET /api/estado answers (lib/status-page/status.ts), read at most once per interval.
import type { Metadata } from 'next';
import { SOURCE_STATE_TEXT, STATUS_DAYS, STATUS_HOURS } from '@/lib/status-page/states';
import { publicStatus, type PublicSourceStatus } from '@/lib/status-page/status';
import { NO_INCIDENTS_TEXT, NO_OUTAGE_TEXT } from '@/lib/status-page/summary';
import { availabilityLevel, formatAvailability, formatIncidentDuration, formatStatusTime } from '@/lib/status-page/format';
import './estado.css';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Estado de las fuentes · Consulta de contribuyentes' };

const LEVEL_TEXT = { none: 'sin consultas', good: '99 % o más', partial: 'entre 90 % y 99 %', bad: 'menos de 90 %' } as const;

function Bars({ label, cells }: { label: string; cells: Array<{ when: string; percent: number | null }> }) {
  return (
    <ol className="bars" aria-label={label}>
      {cells.map((cell) => {
        const text = `${cell.when}: ${formatAvailability(cell.percent)}`;
        return (
          <li key={cell.when} className={`bar level-${availabilityLevel(cell.percent)}`} title={text}>
            <span className="visually-hidden">{text}</span>
          </li>
        );
      })}
    </ol>
  );
}

function SourceCard({ source }: { source: PublicSourceStatus }) {
  const days = source.dias.map((day) => ({ when: day.dia.split('-').reverse().join('/'), percent: day.disponibilidad }));
  const hours = source.horas.map((hour) => ({ when: `desde ${formatStatusTime(hour.desde)}`, percent: hour.disponibilidad }));
  return (
    <section className="source" aria-labelledby={`fuente-${source.fuente}`} data-source={source.fuente} data-state={source.estado}>
      <header>
        <h2 id={`fuente-${source.fuente}`}>{source.nombre}</h2>
        <p className={`badge state-${source.estado}`}>{SOURCE_STATE_TEXT[source.estado]}</p>
      </header>
      <h3>Últimos {STATUS_DAYS} días</h3>
      <p className="summary">Disponibilidad: {formatAvailability(source.disponibilidad_90_dias)}</p>
      <Bars label={`Disponibilidad por día de ${source.nombre}, del más antiguo al de hoy`} cells={days} />
      <h3>Últimas {STATUS_HOURS} horas</h3>
      <Bars label={`Disponibilidad por hora de ${source.nombre}, de la más antigua a la actual`} cells={hours} />
    </section>
  );
}

export default async function StatusPage() {
  const status = await publicStatus();
  return (
    <>
      <a className="skip-link" href="#contenido">
        Saltar al contenido
      </a>
      <main className="status-page" id="contenido" tabIndex={-1}>
        <header>
          <h1>Estado de las fuentes</h1>
          <p className="muted">
            Disponibilidad de las fuentes que consulta la API: la parte de las consultas que llegaron a la fuente y no fallaron por ella (una
            consulta sin resultados es una respuesta de la fuente). Horas de Guatemala. Documentación: <a href="/docs">/docs</a> · datos en JSON:{' '}
            <a href="/api/estado">/api/estado</a>
          </p>
        </header>
        {status ? (
          <>
            <p className={`overall overall-${status.resumen.estado}`}>{status.resumen.texto}</p>
            <p className="muted">Actualizado: {formatStatusTime(status.generado_en)}</p>
            <ul className="legend" aria-label="Leyenda">
              {(['good', 'partial', 'bad', 'none'] as const).map((level) => (
                <li key={level}>
                  <span className={`bar level-${level}`} aria-hidden="true" /> {LEVEL_TEXT[level]}
                </li>
              ))}
            </ul>
            {status.fuentes.map((source) => (
              <SourceCard key={source.fuente} source={source} />
            ))}
            <section className="incidents" aria-labelledby="incidentes">
              <h2 id="incidentes">Incidentes recientes</h2>
              {status.resumen.sin_incidentes ? (
                <p>{NO_INCIDENTS_TEXT}</p>
              ) : status.incidentes.length === 0 && status.resumen.degradaciones_en_curso.length === 0 ? (
                <p>{NO_OUTAGE_TEXT}</p>
              ) : (
                <ul>
                  {status.resumen.degradaciones_en_curso.map((degradation) => (
                    <li key={`${degradation.fuente}-degradado`} data-source={degradation.fuente} data-ongoing="true">
                      <strong>{degradation.nombre}</strong>: degradado (parte de sus consultas falla) desde {formatStatusTime(degradation.desde)} ·{' '}
                      <span className="ongoing">en curso</span>
                    </li>
                  ))}
                  {status.incidentes.map((incident) => (
                    <li key={`${incident.fuente}-${incident.inicio}`} data-source={incident.fuente} data-ongoing={incident.en_curso}>
                      <strong>{incident.nombre}</strong>: sin servicio desde {formatStatusTime(incident.inicio)}
                      {incident.en_curso ? (
                        <>
                          {' '}
                          · <span className="ongoing">en curso</span> ({formatIncidentDuration(incident.duracion_segundos)})
                        </>
                      ) : (
                        <>
                          {' '}
                          hasta {formatStatusTime(incident.fin!)} · duración {formatIncidentDuration(incident.duracion_segundos)}
                        </>
                      )}
                    </li>
                  ))}
                </ul>
              )}
            </section>
          </>
        ) : (
          <p role="alert">El estado de las fuentes no está disponible en este momento. Intente de nuevo en unos minutos.</p>
        )}
      </main>
    </>
  );
}
