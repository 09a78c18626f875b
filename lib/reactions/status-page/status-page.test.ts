// Issue 25, point 3: the availability maths and the incident merging of the public status page.
import { describe, expect, it } from 'vitest';
import { availabilityByBucket, overallAvailability, type RecordedCalls } from './availability';
import { formatAvailability, formatIncidentDuration, formatStatusHour, refreshIntervalText, statusCellText } from './format';
import { mergeIncidents, STALE_AFTER_MS, type RecordedTransition } from './incidents';
import { sourceState } from './states';
import { asPercent } from './status';

const HOUR = 3_600_000;
const at = (minutes: number) => new Date(Date.UTC(2026, 10, 24, 12, 0) + minutes * 60_000);
const hour0 = new Date(Date.UTC(2026, 10, 24, 10));
const hour1 = new Date(hour0.getTime() + HOUR);

describe('availability from the rollups', () => {
  const cells: RecordedCalls[] = [
    // Catalogs: answers (200), "not found" (404) and rejected data (400) are the source answering;
    // 502 (down) and its refusals of the gateway (401, 429) are the source failing; 500 is ours.
    { bucket: hour0, lookup: 'cui_nit', httpStatus: 200, queries: 60 },
    { bucket: hour0, lookup: 'omisos', httpStatus: 404, queries: 20 },
    { bucket: hour0, lookup: 'rtu', httpStatus: 400, queries: 5 },
    { bucket: hour0, lookup: 'rtu', httpStatus: 502, queries: 10 },
    { bucket: hour0, lookup: 'cui_nit', httpStatus: 429, queries: 3 },
    { bucket: hour0, lookup: 'omisos', httpStatus: 401, queries: 2 },
    { bucket: hour0, lookup: 'cui_nit', httpStatus: 500, queries: 7 },
    // Person registry: its own 404 is an answer; 500 is "failure querying the registry".
    { bucket: hour0, lookup: 'renap', httpStatus: 404, queries: 9 },
    { bucket: hour0, lookup: 'renap', httpStatus: 500, queries: 1 },
    { bucket: hour1, lookup: 'renap', httpStatus: 200, queries: 4 },
    // RTU by NIT: 200 or 500.
    { bucket: hour1, lookup: 'rtu_nits', httpStatus: 500, queries: 4 },
    // Outside the buckets asked for: ignored.
    { bucket: new Date(hour0.getTime() - HOUR), lookup: 'renap', httpStatus: 500, queries: 100 },
  ];
  const bySource = availabilityByBucket(cells, [hour0, hour1]);

  it('counts the failures that are the source’s, per source and bucket', () => {
    expect(bySource.catalog[0]).toEqual({ start: hour0, calls: 107, failures: 15, availability: 92 / 107 });
    expect(bySource.renap).toEqual([
      { start: hour0, calls: 10, failures: 1, availability: 0.9 },
      { start: hour1, calls: 4, failures: 0, availability: 1 },
    ]);
    expect(bySource.rtu[1]).toEqual({ start: hour1, calls: 4, failures: 4, availability: 0 });
  });

  it('a bucket with no source call has no availability, and does not weigh on the total', () => {
    expect(bySource.catalog[1]).toEqual({ start: hour1, calls: 0, failures: 0, availability: null });
    expect(bySource.rtu[0]!.availability).toBeNull();
    expect(overallAvailability(bySource.renap)).toBeCloseTo(13 / 14);
    expect(overallAvailability(bySource.catalog)).toBeCloseTo(92 / 107);
    expect(overallAvailability([])).toBeNull();
  });

  it('a percent is rounded down, so one failure in many keeps it under 100', () => {
    expect(asPercent(99_999 / 100_000)).toBe(99.99);
    expect(asPercent(1)).toBe(100);
    expect(asPercent(0)).toBe(0);
    expect(asPercent(null)).toBeNull();
  });

  it('the state now: without service during an incident, degraded when the current hour fails too often', () => {
    expect(sourceState(true, { start: hour0, calls: 10, failures: 0, availability: 1 })).toBe('sin_servicio');
    expect(sourceState(false, { start: hour0, calls: 10, failures: 1, availability: 0.9 })).toBe('degradado');
    expect(sourceState(false, { start: hour0, calls: 100, failures: 1, availability: 0.99 })).toBe('operando');
    expect(sourceState(false, { start: hour0, calls: 0, failures: 0, availability: null })).toBe('operando');
  });
});

describe('incidents merged from the instances’ breakers', () => {
  const transition = (instance: string, kind: 'opened' | 'closed', minute: number, confirmedMinute = minute, source: RecordedTransition['source'] = 'catalog'): RecordedTransition => ({
    instance,
    source,
    transition: kind,
    at: at(minute),
    confirmedAt: at(confirmedMinute),
  });

  it('lasts while any instance has the breaker open, from the first opening to the last closing', () => {
    const incidents = mergeIncidents(
      [transition('b', 'closed', 12), transition('a', 'opened', 0, 7), transition('b', 'opened', 3, 12), transition('a', 'closed', 7)],
      at(60),
    );
    expect(incidents).toEqual([{ source: 'catalog', startedAt: at(0), endedAt: at(12), durationMs: 12 * 60_000 }]);
  });

  it('two openings with a gap are two incidents, newest first, and each source has its own', () => {
    const incidents = mergeIncidents(
      [
        transition('a', 'opened', 0),
        transition('a', 'closed', 2),
        transition('a', 'opened', 30),
        transition('a', 'closed', 31),
        transition('a', 'opened', 1, 1, 'renap'),
        transition('a', 'closed', 5, 5, 'renap'),
      ],
      at(60),
    );
    expect(incidents.map((incident) => [incident.source, incident.startedAt, incident.endedAt])).toEqual([
      ['catalog', at(30), at(31)],
      ['renap', at(1), at(5)],
      ['catalog', at(0), at(2)],
    ]);
  });

  it('an opening its instance still confirms is in progress; a reopening after half-open does not start another', () => {
    const now = at(20);
    const incidents = mergeIncidents([transition('a', 'opened', 0, 19.9), transition('a', 'opened', 10, 19.9), transition('b', 'opened', 5, 15), transition('b', 'closed', 15)], now);
    expect(incidents).toEqual([{ source: 'catalog', startedAt: at(0), endedAt: null, durationMs: 20 * 60_000 }]);
  });

  it('an instance that stopped confirming (stopped or crashed while open) holds it open until its last confirmation', () => {
    const confirmedMinute = 8;
    const now = new Date(at(confirmedMinute).getTime() + STALE_AFTER_MS + 1);
    expect(mergeIncidents([transition('gone', 'opened', 0, confirmedMinute)], now)).toEqual([
      { source: 'catalog', startedAt: at(0), endedAt: at(confirmedMinute), durationMs: confirmedMinute * 60_000 },
    ]);
    const stillThere = new Date(at(confirmedMinute).getTime() + STALE_AFTER_MS - 1);
    expect(mergeIncidents([transition('gone', 'opened', 0, confirmedMinute)], stillThere)[0]!.endedAt).toBeNull();
  });

  it('a closing whose opening is outside the window read says nothing', () => {
    expect(mergeIncidents([transition('a', 'closed', 3)], at(10))).toEqual([]);
  });
});

describe('durations in words', () => {
  it.each([
    [0, '0 s'],
    [45, '45 s'],
    [192, '3 min 12 s'],
    [180, '3 min'],
    [7_500, '2 h 5 min'],
    [97_200, '1 d 3 h'],
  ])('%i s is «%s»', (seconds, text) => {
    expect(formatIncidentDuration(seconds)).toBe(text);
  });
});

describe('availability in words', () => {
  it.each([
    [100, '100 %'],
    [0, '0 %'],
    [99.5, '99.50 %'],
    [null, 'sin consultas'],
  ] as const)('%s is «%s»', (percent, text) => {
    expect(formatAvailability(percent)).toBe(text);
  });
});

describe('a bar in words: its date or hour, its state and its figure', () => {
  it.each([
    ['24/11/2026', { disponibilidad: 50, estado: 'degradado' }, '24/11/2026: Degradado, 50 % de las consultas respondidas'],
    ['24/11/2026', { disponibilidad: 100, estado: 'operando' }, '24/11/2026: Sin incidentes, 100 % de las consultas respondidas'],
    ['24/11/2026', { disponibilidad: null, estado: 'sin_datos' }, '24/11/2026: Sin datos, nadie consultó la fuente'],
    ['24/11/2026', { disponibilidad: null, estado: 'sin_servicio' }, '24/11/2026: Sin servicio'],
  ] as const)('%s %o is «%s»', (when, cell, text) => {
    expect(statusCellText(when, cell)).toBe(text);
  });

  it('an hour is dated in Guatemala’s time, from its start to its end', () => {
    expect(formatStatusHour('2026-11-24T20:00:00.000Z')).toBe('24/11/2026, 14:00 a 15:00');
  });

  it('the refresh interval reads as Spanish', () => {
    expect(refreshIntervalText(1)).toBe('cada segundo');
    expect(refreshIntervalText(30)).toBe('cada 30 segundos');
  });
});
