// The changes' CSV a person downloads from the portal: words, Guatemala time beside UTC, and the
// exports' formula rule for a name a spreadsheet would otherwise run.
import { describe, expect, it } from 'vitest';
import { watchChangeCsvLine, watchChangesCsvHeader } from './csv';
import type { NamedWatchListChange } from './changes';

const change = (overrides: Partial<NamedWatchListChange>): NamedWatchListChange => ({
  nit: '576937K',
  name: 'Comercial La Esperanza, S.A.',
  kind: 'omiso',
  before: false,
  after: true,
  run: 3,
  position: 0,
  jobId: 'lote_0123456789abcdef0123',
  detectedAt: new Date('2026-11-02T04:30:05.123Z'),
  constanciaId: null,
  ...overrides,
});

describe('the watch list changes CSV', () => {
  it('starts with a byte-order mark and names its columns', () => {
    expect(watchChangesCsvHeader()).toBe('\uFEFFdetectado_guatemala,detectado_utc,ejecucion,lote,nit,nombre,cambio,antes,despues\r\n');
  });

  it('writes a change in words, the time in Guatemala (the day before, at 22:30) beside UTC', () => {
    expect(watchChangeCsvLine(change({}))).toBe('2026-11-01 22:30:05,2026-11-02T04:30:05.123Z,3,lote_0123456789abcdef0123,576937K,"Comercial La Esperanza, S.A.",Omiso,no,sí\r\n');
    expect(watchChangeCsvLine(change({ kind: 'registro', before: 'encontrado', after: 'no_encontrado', name: null }))).toBe(
      '2026-11-01 22:30:05,2026-11-02T04:30:05.123Z,3,lote_0123456789abcdef0123,576937K,,En el catálogo,encontrado,no encontrado\r\n',
    );
    expect(watchChangeCsvLine(change({ kind: 'estado_rtu', before: 'ACTIVO', after: null }))).toContain(',Estado en el RTU,ACTIVO,sin dato\r\n');
  });

  it('writes a name that starts like a formula as text, as every export does', () => {
    for (const name of ['=HYPERLINK("http://x","y")', '+1', '-1+2', '@SUM(A1)', ' =1', '＝1']) {
      const line = watchChangeCsvLine(change({ name }));
      const cell = line.split(',576937K,')[1]!;
      expect(cell.startsWith(`'`) || cell.startsWith(`"'`), `${name} → ${cell}`).toBe(true);
    }
    expect(watchChangeCsvLine(change({ name: '=HYPERLINK("http://x","y")' }))).toContain(`,"'=HYPERLINK(""http://x"",""y"")",Omiso,`);
  });
});
