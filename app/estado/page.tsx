// /estado - the public status of the sources: no sign-in, in Spanish, readable on a phone. The same
// status GET /api/estado answers (lib/reactions/status-page/status.ts), read at most once per interval.
import type { Metadata } from 'next';
import { env } from '@/lib/platform/settings/env';
import { statusPageSettings } from '@/lib/reactions/status-page/settings';
import { BUCKET_STATE_EXPLANATION, BUCKET_STATE_TEXT, SOURCE_STATE_TEXT, STATUS_DAYS, STATUS_HOURS, type BucketState } from '@/lib/reactions/status-page/states';
import { publicStatus, type PublicSourceStatus } from '@/lib/reactions/status-page/status';
import { NO_INCIDENTS_TEXT, NO_OUTAGE_TEXT } from '@/lib/reactions/status-page/summary';
import {
  formatIncidentDuration,
  formatStatusDay,
  formatStatusHour,
  formatStatusTime,
  refreshIntervalText,
  sourceAvailabilityText,
  statusCellText,
} from '@/lib/reactions/status-page/format';
import './estado.css';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Estado de las fuentes · Consulta de contribuyentes' };

/** The days a phone shows (estado.css hides the older ones below 700 px): 90 would be hairlines. */
const PHONE_DAYS = 30;
const LEGEND_ORDER = ['operando', 'degradado', 'sin_servicio', 'sin_datos'] as const;

interface Cell {
  key: string;
  text: string;
  estado: BucketState;
  /** Hidden on a phone. */
  older?: boolean;
}

function Bars({ label, cells }: { label: string; cells: Cell[] }) {
  return (
    <ol className="bars" aria-label={label}>
      {cells.map((cell) => (
        <li key={cell.key} className={`bar bar-${cell.estado}${cell.older ? ' older' : ''}`} title={cell.text} data-state={cell.estado}>
          <span className="visually-hidden">{cell.text}</span>
        </li>
      ))}
    </ol>
  );
}

function SourceCard({ source }: { source: PublicSourceStatus }) {
  const days = source.dias.map((day, index) => ({
    key: day.dia,
    text: statusCellText(formatStatusDay(day.dia), day),
    estado: day.estado,
    older: index < source.dias.length - PHONE_DAYS,
  }));
  const hours = source.horas.map((hour) => ({ key: hour.desde, text: statusCellText(formatStatusHour(hour.desde), hour), estado: hour.estado }));
  return (
    <section className="source" aria-labelledby={`fuente-${source.fuente}`} data-source={source.fuente} data-state={source.estado}>
      <header>
        <h2 id={`fuente-${source.fuente}`}>{source.nombre}</h2>
        <p className={`badge state-${source.estado}`}>{SOURCE_STATE_TEXT[source.estado]}</p>
      </header>
      <p className="summary">{sourceAvailabilityText(source.disponibilidad_90_dias, STATUS_DAYS)}</p>
      <h3>
        Por día, <span className="wide">últimos {STATUS_DAYS} días</span>
        <span className="narrow">últimos {PHONE_DAYS} días</span>
      </h3>
      <Bars label={`Estado por día de ${source.nombre}, del más antiguo a hoy`} cells={days} />
      <p className="axis days" aria-hidden="true">
        <span className="wide">{formatStatusDay(source.dias[0]!.dia)}</span>
        <span className="narrow">{formatStatusDay(source.dias.at(-PHONE_DAYS)!.dia)}</span>
        <span>hoy</span>
      </p>
      <h3>Por hora, últimas {STATUS_HOURS} horas</h3>
      <Bars label={`Estado por hora de ${source.nombre}, de la más antigua a la actual`} cells={hours} />
      <p className="axis hours" aria-hidden="true">
        <span>{formatStatusTime(source.horas[0]!.desde)}</span>
        <span>ahora</span>
      </p>
    </section>
  );
}

function Legend() {
  return (
    <section className="legend" aria-labelledby="leyenda">
      <h2 id="leyenda">Qué significan los colores</h2>
      <ul aria-label="Qué significa cada color">
        {LEGEND_ORDER.map((state) => (
          <li key={state}>
            <span className={`swatch bar-${state}`} aria-hidden="true" />
            <span>
              <strong>{BUCKET_STATE_TEXT[state]}</strong>: {BUCKET_STATE_EXPLANATION[state]}
            </span>
          </li>
        ))}
      </ul>
      <p className="muted">Pase el cursor sobre una barra, o tóquela con un lector de pantalla, para ver su fecha y su cifra.</p>
    </section>
  );
}

function WhatToDo({ supportEmail }: { supportEmail: string | undefined }) {
  return (
    <section className="help" aria-labelledby="si-falla">
      <h2 id="si-falla">Si una fuente falla</h2>
      <ul>
        <li>
          <strong>Degradado</strong> o <strong>Sin servicio</strong>: las consultas a esa fuente pueden fallar mientras dure. Una consulta que
          falla porque la fuente no respondió no se cobra: repítala más tarde. No hace falta avisar a soporte; la falla ya se ve aquí.
        </li>
        <li>
          Si aquí todas las fuentes dicen <strong>Operando</strong> y sus consultas fallan, escriba a{' '}
          {supportEmail ? <a href={`mailto:${supportEmail}`}>{supportEmail}</a> : 'soporte de este servicio'} con el identificador que trae
          cada respuesta (empieza con <code>req_</code>); vea <a href="/docs#soporte">Soporte</a> en la documentación.
        </li>
      </ul>
    </section>
  );
}

export default async function StatusPage() {
  const status = await publicStatus();
  const settings = env();
  return (
    <>
      <a className="skip-link" href="#contenido">
        Saltar al contenido
      </a>
      <nav className="public-nav" aria-label="Páginas públicas">
        <a href="/docs">
          <span aria-hidden="true">← </span>Documentación de la API
        </a>
        {/* Plain links, full loads: the public pages are answered from lib/surfaces/public-pages' cache as HTML, not as the router's payload. */}
        {/* eslint-disable-next-line @next/next/no-html-link-for-pages */}
        <a href="/">Inicio</a>
      </nav>
      <main className="status-page" id="contenido" tabIndex={-1}>
        <header>
          <h1>Estado de las fuentes</h1>
          <p>
            Esta página muestra si responden las tres fuentes de datos de las que este servicio obtiene sus respuestas: el Registro Nacional de las
            Personas (RENAP), el Registro Tributario Unificado de la SAT (RTU) y el servicio de catálogos (CUI/NIT, RTU completo y omisos).
          </p>
          <p className="muted">
            Los datos se renuevan {refreshIntervalText(statusPageSettings().STATUS_PAGE_CACHE_SECONDS)}: vuelva a cargar la página para ver lo último. Fechas y
            horas de Guatemala.
          </p>
        </header>
        {status ? (
          <>
            <p className={`overall overall-${status.resumen.estado}`}>{status.resumen.texto}</p>
            <p className="muted">Actualizado: {formatStatusTime(status.generado_en)}</p>
            <WhatToDo supportEmail={settings.SUPPORT_CONTACT_EMAIL} />
            <Legend />
            {status.fuentes.map((source) => (
              <SourceCard key={source.fuente} source={source} />
            ))}
            {status.componentes.map((component) => (
              <section key={component.componente} className="source" aria-labelledby={`componente-${component.componente}`} data-component={component.componente} data-state={component.estado}>
                <header>
                  <h2 id={`componente-${component.componente}`}>{component.nombre}</h2>
                  <p className={`badge state-${component.estado}`}>{SOURCE_STATE_TEXT[component.estado]}</p>
                </header>
                <p className="summary" data-testid="component-text">
                  {component.texto}
                  {component.desde && ` Desde ${formatStatusTime(component.desde)}.`}
                </p>
              </section>
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
            <p className="muted">
              Para sistemas: los mismos datos, en JSON, en <a href="/api/estado">/api/estado</a>.
            </p>
          </>
        ) : (
          <p role="alert">El estado de las fuentes no está disponible en este momento. Intente de nuevo en unos minutos.</p>
        )}
      </main>
    </>
  );
}
