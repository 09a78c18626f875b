// Issue 32, point 8: the status page's summary, the sources' states and the days' and hours' cells
// come from the same figures, so the page never says "Sin incidentes" beside a source that fails
// now or a day that failed. Built from rollup cells and breaker transitions as the database holds
// them (buildPublicStatus), without the database.
import { describe, expect, it } from 'vitest';
import { guatemalanDayBefore, guatemalanToday, startOfGuatemalanDay } from '@/lib/platform/time/guatemala-time';
import { hourStart } from '@/lib/platform/time/hours';
import type { RecordedCalls } from './availability';
import type { RecordedTransition } from './incidents';
import { buildPublicStatus, type PublicStatus } from './status';
import { NO_INCIDENTS_TEXT } from './summary';

/** 24/11/2026, 14:30 in Guatemala. */
const NOW = new Date(Date.UTC(2026, 10, 24, 20, 30));
const TODAY = guatemalanToday(NOW);
const CURRENT_HOUR = hourStart(NOW);
const dayCell = (daysAgo: number, lookup: RecordedCalls['lookup'], httpStatus: number, queries: number): RecordedCalls => ({
  bucket: startOfGuatemalanDay(guatemalanDayBefore(TODAY, daysAgo)),
  lookup,
  httpStatus,
  queries,
});
const hourCell = (lookup: RecordedCalls['lookup'], httpStatus: number, queries: number): RecordedCalls => ({ bucket: CURRENT_HOUR, lookup, httpStatus, queries });
const transition = (kind: 'opened' | 'closed', at: Date, source: RecordedTransition['source'] = 'renap', confirmedAt = at): RecordedTransition => ({
  instance: 'a',
  source,
  transition: kind,
  at,
  confirmedAt,
});

function build(input: { dayCells?: RecordedCalls[]; hourCells?: RecordedCalls[]; transitions?: RecordedTransition[] }): PublicStatus {
  return buildPublicStatus({ now: NOW, dayCells: input.dayCells ?? [], hourCells: input.hourCells ?? [], transitions: input.transitions ?? [] });
}

const sourceOf = (status: PublicStatus, source: string) => status.fuentes.find((entry) => entry.fuente === source)!;

describe('the summary of the public status', () => {
  it('a source degraded now, with no incident recorded (the screenshot), is never "Sin incidentes": it is named, and today is a day with failures', () => {
    // The day so far is mostly fine (99.5 %); the current hour fails half of its calls.
    const status = build({
      dayCells: [dayCell(0, 'cui_nit', 200, 1_000), dayCell(0, 'cui_nit', 502, 5)],
      hourCells: [hourCell('cui_nit', 200, 5), hourCell('cui_nit', 502, 5)],
    });
    const catalog = sourceOf(status, 'catalog');
    expect(catalog.estado).toBe('degradado');
    expect(catalog.horas.at(-1)!.estado).toBe('degradado');
    expect(catalog.dias.at(-1)).toEqual({ dia: TODAY, disponibilidad: 99.5, estado: 'degradado' });
    expect(status.incidentes).toEqual([]);
    expect(status.resumen.estado).toBe('degradado');
    expect(status.resumen.sin_incidentes).toBe(false);
    expect(status.resumen.texto).not.toContain('Sin incidentes');
    expect(status.resumen.texto).toContain('Fuente de catálogos (CUI/NIT, RTU, omisos): degradado');
    expect(status.resumen.degradaciones_en_curso).toEqual([{ fuente: 'catalog', nombre: 'Fuente de catálogos (CUI/NIT, RTU, omisos)', desde: CURRENT_HOUR.toISOString() }]);
    expect(status.resumen.dias_con_fallas).toBe(1);
  });

  it('a source without service now is named as such, and its hour and day are "sin servicio" even with no call recorded', () => {
    const opened = new Date(NOW.getTime() - 10 * 60_000);
    // Its instance confirmed the open breaker a few seconds ago: the outage lasts.
    const status = build({ transitions: [transition('opened', opened, 'renap', new Date(NOW.getTime() - 5_000))] });
    const renap = sourceOf(status, 'renap');
    expect(renap.estado).toBe('sin_servicio');
    expect(renap.horas.at(-1)).toMatchObject({ disponibilidad: null, estado: 'sin_servicio' });
    expect(renap.dias.at(-1)).toMatchObject({ disponibilidad: null, estado: 'sin_servicio' });
    expect(status.resumen.estado).toBe('sin_servicio');
    expect(status.resumen.sin_incidentes).toBe(false);
    expect(status.resumen.texto).toContain('Registro de personas (RENAP): sin servicio');
    expect(status.resumen.texto).toContain('Las demás fuentes responden con normalidad.');
    // The outage is an incident of its own, listed as such: not a degradation too.
    expect(status.resumen.degradaciones_en_curso).toEqual([]);
    expect(status.incidentes).toMatchObject([{ fuente: 'renap', en_curso: true }]);
  });

  it('everything answering, no failing day and no incident: "Sin incidentes en los últimos 90 días"; days nobody asked are "sin datos"', () => {
    const status = build({ dayCells: [dayCell(3, 'renap', 200, 40), dayCell(3, 'renap', 404, 2)], hourCells: [hourCell('rtu_nits', 200, 3)] });
    expect(status.fuentes.map((source) => source.estado)).toEqual(['operando', 'operando', 'operando']);
    expect(sourceOf(status, 'renap').dias.at(-4)!.estado).toBe('operando');
    expect(sourceOf(status, 'renap').dias.at(-1)!.estado).toBe('sin_datos');
    expect(status.resumen).toEqual({
      estado: 'operando',
      texto: `Todas las fuentes responden con normalidad. ${NO_INCIDENTS_TEXT}`,
      sin_incidentes: true,
      degradaciones_en_curso: [],
      dias_con_fallas: 0,
    });
  });

  it('everything answering now after a degraded day and an outage: says so, not "Sin incidentes"', () => {
    const threeDaysAgo = startOfGuatemalanDay(guatemalanDayBefore(TODAY, 3));
    const status = build({
      dayCells: [dayCell(10, 'renap', 200, 90), dayCell(10, 'renap', 500, 10), dayCell(0, 'renap', 200, 50)],
      hourCells: [hourCell('renap', 200, 50)],
      transitions: [transition('opened', new Date(threeDaysAgo.getTime() + 3_600_000), 'rtu'), transition('closed', new Date(threeDaysAgo.getTime() + 4_000_000), 'rtu')],
    });
    expect(status.fuentes.map((source) => source.estado)).toEqual(['operando', 'operando', 'operando']);
    expect(sourceOf(status, 'renap').dias.at(-11)).toMatchObject({ disponibilidad: 90, estado: 'degradado' });
    expect(sourceOf(status, 'rtu').dias.at(-4)).toMatchObject({ disponibilidad: null, estado: 'sin_servicio' });
    expect(status.resumen.estado).toBe('operando');
    expect(status.resumen.sin_incidentes).toBe(false);
    expect(status.resumen.dias_con_fallas).toBe(2);
    expect(status.resumen.texto).toBe('Todas las fuentes responden con normalidad. Hubo fallas en 2 de los últimos 90 días: se ven en las barras y en «Incidentes recientes».');
  });
});
