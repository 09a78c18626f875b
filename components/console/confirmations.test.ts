import { describe, expect, it } from 'vitest';
import { questionFor } from './confirmations';

describe('the tariff asks before it changes (issue 24, point 4)', () => {
  const confirmation = { kind: 'tariff', nombre: 'Contabilidad Norte', tariffCentavos: 150 } as const;

  it('shows the old and the new price per query', () => {
    const question = questionFor(confirmation, { tarifa: '1.75' });
    expect(question?.title).toBe('¿Cambiar la tarifa de «Contabilidad Norte»?');
    expect(question?.message).toContain('de Q 1.50 a Q 1.75 por consulta');
    expect(question?.message).not.toContain('veces');
    expect(question?.confirmLabel).toBe('Guardar tarifa Q 1.75');
  });

  it('calls out a price a hundred times the current one (150 typed for 1.50)', () => {
    const question = questionFor(confirmation, { tarifa: '150' });
    expect(question?.message).toContain('de Q 1.50 a Q 150.00 por consulta');
    expect(question?.message).toContain('100 veces la tarifa actual');
    expect(question?.confirmLabel).toBe('Guardar tarifa Q 150.00');
  });

  it('calls out a price ten times lower than the current one', () => {
    expect(questionFor(confirmation, { tarifa: '0.15' })?.message).toContain('10 veces menos que la tarifa actual');
  });

  it('still warns that a zero tariff stops billing', () => {
    const question = questionFor(confirmation, { tarifa: '0' });
    expect(question?.message).toContain('dejarán de cobrarse');
    expect(question?.confirmLabel).toBe('Guardar tarifa Q 0.00');
  });

  it('asks nothing when the tariff is unchanged or will be refused by the server', () => {
    expect(questionFor(confirmation, { tarifa: '1.50' })).toBeUndefined();
    expect(questionFor(confirmation, { tarifa: 'uno' })).toBeUndefined();
    expect(questionFor(confirmation, { tarifa: '-2' })).toBeUndefined();
    expect(questionFor(confirmation, { tarifa: '1.505' })).toBeUndefined();
  });
});

describe('an adjustment (issue 24, point 10)', () => {
  const confirmation = { kind: 'adjustment', nombre: 'demo', balanceCentavos: 500 } as const;

  it('takes "+10" as an amount to add', () => {
    const question = questionFor(confirmation, { monto: '+10', nota: 'Bonificación' });
    expect(question?.title).toBe('¿Sumar Q 10.00 al saldo de «demo»?');
    expect(question?.confirmLabel).toBe('Registrar ajuste');
  });

  it('offers no "Registrar ajuste" when the dialog says the server will refuse it', () => {
    const question = questionFor(confirmation, { monto: '-10', nota: 'Corrección' });
    expect(question?.message).toContain('se rechazará');
    expect(question?.confirmLabel).toBeUndefined();
  });
});

describe('rotating and revoking a token name it and the overlap (issue 32, point 11)', () => {
  const tokens = [
    { id: 4, label: 'Producción', prefix: 'tlk_3f9a2c' },
    { id: 9, label: 'Pruebas', prefix: 'tlk_77c1d0' },
  ];

  it('says which token a rotation replaces and how long it keeps working', () => {
    const question = questionFor({ kind: 'rotation', tokens }, { tokenId: '9', superposicion: '24h' });
    expect(question).toEqual({
      title: '¿Rotar el token «Pruebas» (tlk_77c1d0…)?',
      message: 'Se genera un token nuevo con el mismo nombre. «Pruebas» (tlk_77c1d0…) sigue funcionando durante 24 horas y después deja de funcionar.',
      confirmLabel: 'Rotar token',
    });
    expect(questionFor({ kind: 'rotation', tokens }, { tokenId: '4', superposicion: 'none' })?.message).toBe(
      'Se genera un token nuevo con el mismo nombre, y «Producción» (tlk_3f9a2c…) deja de funcionar ahora mismo en todas las instancias.',
    );
  });

  it('says which token a revocation stops', () => {
    expect(questionFor({ kind: 'revocation', tokens }, { tokenId: '4' })?.title).toBe('¿Revocar el token «Producción» (tlk_3f9a2c…)?');
  });

  it('tells a rotation’s two tokens of the same name apart by which one is old and its dates', () => {
    const pair = [
      { id: 4, label: 'Producción', prefix: 'tlk_3f9a2c', distinction: 'anterior, creado el 01/11/2026, 10:00:00, funciona hasta el 28/11/2026, 10:00:00' },
      { id: 7, label: 'Producción', prefix: 'tlk_0b1e55', distinction: 'nuevo, creado el 27/11/2026, 10:00:00' },
    ];
    expect(questionFor({ kind: 'revocation', tokens: pair }, { tokenId: '4' })?.title).toBe(
      '¿Revocar el token «Producción» (tlk_3f9a2c…, anterior, creado el 01/11/2026, 10:00:00, funciona hasta el 28/11/2026, 10:00:00)?',
    );
    expect(questionFor({ kind: 'revocation', tokens: pair }, { tokenId: '7' })?.title).toBe('¿Revocar el token «Producción» (tlk_0b1e55…, nuevo, creado el 27/11/2026, 10:00:00)?');
  });
});

describe('an allow-list that leaves out the address in use (issue 34, point 1)', () => {
  const confirmation = { kind: 'allow_list', clientAddress: '203.0.113.9' } as const;

  it('asks, naming the address, and sends the confirmation with the form', () => {
    const question = questionFor(confirmation, { direcciones: '198.51.100.0/24, 2001:db8::/32' });
    expect(question?.title).toBe('¿Guardar una lista que deja fuera su dirección?');
    expect(question?.message).toContain('Ahora está conectado desde 203.0.113.9, que la lista no incluye');
    expect(question?.confirmLabel).toBe('Guardar de todos modos');
    expect(question?.confirmedFields).toEqual({ fueraDeLista: 'si' });
  });

  it('asks when the address cannot be read and the list is not empty', () => {
    expect(questionFor({ kind: 'allow_list', clientAddress: null }, { direcciones: '198.51.100.7' })?.message).toContain('No se pudo leer la dirección');
  });

  it('asks nothing for a list that includes the address, an empty list, or one the server will refuse', () => {
    expect(questionFor(confirmation, { direcciones: '198.51.100.7, 203.0.113.0/24' })).toBeUndefined();
    expect(questionFor(confirmation, { direcciones: '' })).toBeUndefined();
    expect(questionFor({ kind: 'allow_list', clientAddress: null }, { direcciones: ' ' })).toBeUndefined();
    expect(questionFor(confirmation, { direcciones: '198.51.100.300' })).toBeUndefined();
  });
});

describe('approving a reported deposit asks for the amount typed', () => {
  const confirmation = { kind: 'top_up_request', nombre: 'coop-ejemplo', reportedCentavos: 125_050, deposit: 'Banco Industrial con referencia 4455' } as const;

  it('the reported amount, left as it is, as before', () => {
    expect(questionFor(confirmation, { monto: '1,250.50' })?.title).toBe('¿Acreditar Q 1,250.50 a «coop-ejemplo»?');
    expect(questionFor(confirmation, {})?.title).toBe('¿Acreditar Q 1,250.50 a «coop-ejemplo»?');
  });

  it('another amount with its note names both; without the note, or unreadable, it asks nothing and the server says what to fix', () => {
    const question = questionFor(confirmation, { monto: '1,200', nota: 'Comisión bancaria' });
    expect(question?.title).toBe('¿Acreditar Q 1,200.00 a «coop-ejemplo»?');
    expect(question?.message).toContain('Se reportaron Q 1,250.50; se acreditará Q 1,200.00');
    expect(questionFor(confirmation, { monto: '1,200', nota: '' })).toBeUndefined();
    expect(questionFor(confirmation, { monto: '12.345', nota: 'Comisión bancaria' })).toBeUndefined();
    expect(questionFor(confirmation, { monto: '0', nota: 'Comisión bancaria' })).toBeUndefined();
  });
});
