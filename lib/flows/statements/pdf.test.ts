// What a reader of a statement's PDF sees on every page: who issued it (the operator's legal
// name, NIT and address, issue 32, point 7) and "Página N de M". Drawn from a statement held in
// memory, long enough for several pages: the drawing, not the figures, is under test here. A
// preview's PDF is marked as one on every page and carries no number.
import { describe, expect, it } from 'vitest';
import { formatNit } from '@/lib/flows/integration-management/details-display';
import { pdfPageTextLines } from '@/tests/support/pdf-text';
import { configuredIssuer, issuerLines, type StatementIssuer } from './issuer';
import { renderStatementPdf, renderStatementPreviewPdf } from './pdf';
import type { StatementPreview } from './preview';
import type { Statement } from './statements';
import { pageLabel, PREVIEW_MARK } from './texts';

const ISSUER: StatementIssuer = { name: 'Servicios de Consulta Tributaria, S.A.', nit: '576937K', address: '6a. avenida 10-50, zona 9, Ciudad de Guatemala' };

function statementWith(movementCount: number, issuer: StatementIssuer | undefined): Statement {
  const movements = Array.from({ length: movementCount }, (_, index) => ({
    at: new Date(Date.UTC(2026, 4, 1 + (index % 28), 15, index % 60)).toISOString(),
    kind: index % 3 === 0 ? ('adjustment' as const) : ('top_up' as const),
    amountCentavos: index % 3 === 0 ? -100 : 5_000,
    note: `Depósito ${1000 + index}`,
    actor: 'admin@example.com',
  }));
  const topUps = movements.filter((movement) => movement.kind === 'top_up');
  const adjustments = movements.filter((movement) => movement.kind === 'adjustment');
  const sum = (list: typeof movements) => list.reduce((total, movement) => total + movement.amountCentavos, 0);
  return {
    id: 7,
    integrationId: 3,
    month: '2026-05',
    number: 4,
    createdBy: 'system:statements',
    createdAt: new Date('2026-06-01T06:30:00Z'),
    figures: {
      integration: { id: 3, nombre: 'coop-ejemplo', purpose: 'Verificar el NIT de asociados', legalName: 'Cooperativa Ejemplo, R.L.', nit: '4829113' },
      ...(issuer ? { issuer } : {}),
      month: '2026-05',
      period: { from: '2026-05-01T06:00:00.000Z', until: '2026-06-01T06:00:00.000Z' },
      openingBalanceCentavos: 10_000,
      topUps: { count: topUps.length, totalCentavos: sum(topUps) },
      adjustments: { count: adjustments.length, totalCentavos: sum(adjustments) },
      movements,
      charges: { count: 4, totalCentavos: 600, lines: [{ lookup: 'omisos', tariffCentavos: 150, count: 4, amountCentavos: 600 }] },
      closingBalanceCentavos: 10_000 + sum(movements) - 600,
      queries: [{ lookup: 'omisos', outcome: 'success', count: 4 }],
    },
  };
}

describe("an issued statement's PDF", () => {
  it('names its issuer and numbers every page "Página N de M"', async () => {
    const pages = pdfPageTextLines(await renderStatementPdf(statementWith(90, ISSUER), 'Pasarela de prueba', []));
    expect(pages.length).toBeGreaterThanOrEqual(2);
    pages.forEach((lines, index) => {
      expect(lines, `página ${index + 1}`).toContain(pageLabel(index + 1, pages.length));
      expect(lines.join('\n'), `página ${index + 1}`).not.toContain(PREVIEW_MARK);
    });
    expect(pages.flat().filter((line) => line.startsWith('Página '))).toHaveLength(pages.length);
    expect(pages[0]).toEqual(
      expect.arrayContaining([
        `Emisor: Servicios de Consulta Tributaria, S.A.`,
        `NIT del emisor: ${formatNit('576937K')}`,
        `Dirección del emisor: 6a. avenida 10-50, zona 9, Ciudad de Guatemala`,
        'Razón social: Cooperativa Ejemplo, R.L.',
      ]),
    );
    expect(issuerLines(ISSUER)).toEqual([`Emisor: ${ISSUER.name}`, 'NIT del emisor: 576937-K', `Dirección del emisor: ${ISSUER.address}`]);
    // Its number is still there, once.
    expect(pages.flat().filter((line) => line.includes('Estado n.º 4 de coop-ejemplo'))).toHaveLength(1);
  });

  it('reads its notes as they were stored when it was issued: an issued statement always reads the same', async () => {
    const statement = statementWith(2, ISSUER);
    statement.figures.movements[1]!.note = 'Depósito Banco Industrial, referencia 4455 6677, del 2026-05-03 (solicitud 12)';
    const text = pdfPageTextLines(await renderStatementPdf(statement, 'Pasarela de prueba', [])).flat().join(' ');
    expect(text).toContain('del 2026-05-03 (solicitud 12)');
  });

  it('is one page numbered "Página 1 de 1" when the month was quiet', async () => {
    const pages = pdfPageTextLines(await renderStatementPdf(statementWith(2, ISSUER), 'Pasarela de prueba', []));
    expect(pages).toHaveLength(1);
    expect(pages[0]).toContain(pageLabel(1, 1));
  });

  it('names the configured issuer on a statement issued before statements stored theirs', async () => {
    const lines = pdfPageTextLines(await renderStatementPdf(statementWith(2, undefined), 'Pasarela de prueba', [])).flat();
    expect(lines).toEqual(expect.arrayContaining(issuerLines(configuredIssuer())));
  });
});

describe("a preview's PDF", () => {
  it('is marked as a preview on every page, numbers its pages, names its issuer and carries no statement number', async () => {
    const preview: StatementPreview = {
      range: { desde: '2026-06-01', hasta: '2026-06-15' },
      figures: statementWith(90, undefined).figures,
      issuer: ISSUER,
      computedAt: new Date('2026-06-15T20:00:00Z'),
      invoices: [],
    };
    const pages = pdfPageTextLines(await renderStatementPreviewPdf(preview, 'Pasarela de prueba'));
    expect(pages.length).toBeGreaterThanOrEqual(2);
    pages.forEach((lines, index) => {
      expect(lines, `página ${index + 1}`).toContain(pageLabel(index + 1, pages.length));
      expect(lines, `página ${index + 1}`).toContain(PREVIEW_MARK);
    });
    const text = pages.flat();
    expect(text).toEqual(expect.arrayContaining([...issuerLines(ISSUER), 'Periodo: del 1 al 15 de junio de 2026 (hora de Guatemala)']));
    expect(text.join('\n')).not.toMatch(/n\.º|Estado de cuenta n/);
  });
});
