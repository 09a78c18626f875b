import { describe, expect, it } from 'vitest';
import type { TokenView } from '@/lib/flows/integration-management/tokens';
import { integrationWarnings } from './integration-warnings';

const NOW = new Date('2026-11-25T18:00:00Z');
const DAY = 24 * 60 * 60 * 1000;
const FINE = { id: 7, nombre: 'banco-x', active: true, balanceCentavos: 50_000, tariffCentavos: 150, lowBalanceAlertCentavos: null as number | null, purpose: 'Verificar clientes.' };

function token(overrides: Partial<TokenView>): TokenView {
  return {
    id: 1,
    integrationId: 7,
    label: 'Principal',
    tokenPrefix: 'tlk_abc123',
    createdAt: new Date('2026-01-01T00:00:00Z'),
    lastUsedAt: null,
    expiresAt: null,
    revokedAt: null,
    replacedById: null,
    state: 'active',
    ...overrides,
  };
}

const warnings = (integration: Partial<typeof FINE>, tokens: TokenView[] = [token({})]) =>
  integrationWarnings({ ...FINE, ...integration }, tokens, 10_000, NOW).map((warning) => [warning.section, warning.text]);

describe("an integration's summary says what needs attention and where it is put right", () => {
  it('nothing for an active integration with money, a working token and a declared purpose', () => {
    expect(warnings({})).toEqual([]);
  });

  it('deactivated: its details section reactivates it', () => {
    expect(warnings({ active: false })).toEqual([['datos', 'La integración está desactivada: todas sus consultas se rechazan como credenciales no válidas.']]);
  });

  it('the balance as the alerts judge it: below the threshold, or not enough for one lookup', () => {
    expect(warnings({ balanceCentavos: 9_000 })).toEqual([['saldo', 'Saldo bajo: Q 90.00, por debajo del umbral de Q 100.00.']]);
    expect(warnings({ balanceCentavos: 9_000, lowBalanceAlertCentavos: 5_000 })).toEqual([]);
    expect(warnings({ balanceCentavos: 100 })).toEqual([
      ['saldo', 'Saldo agotado: Q 1.00 no alcanza para una consulta de catálogo (Q 1.50); sus catálogos responden 402.'],
    ]);
  });

  it('no token that works, or an active one ending within a week; a rotated one in its overlap is expected', () => {
    expect(warnings({}, [token({ state: 'revoked', revokedAt: NOW })])).toEqual([['credenciales', 'Ningún token funciona: la integración no puede consultar hasta que tenga uno.']]);
    expect(warnings({}, [token({ expiresAt: new Date(NOW.getTime() + 2 * DAY) })])).toEqual([
      ['credenciales', 'El token «Principal» (tlk_abc123…) deja de funcionar el 27/11/2026, 12:00:00.'],
    ]);
    expect(warnings({}, [token({ expiresAt: new Date(NOW.getTime() + 8 * DAY) })])).toEqual([]);
    expect(warnings({}, [token({ id: 2 }), token({ state: 'ending', expiresAt: new Date(NOW.getTime() + DAY), replacedById: 2 })])).toEqual([]);
  });

  it('no declared purpose for the personal data it looks up', () => {
    expect(warnings({ purpose: '' })).toEqual([['datos', 'Sin finalidad declarada del uso de los datos: pregunte al integrador para qué consulta NIT y CUI.']]);
  });
});
