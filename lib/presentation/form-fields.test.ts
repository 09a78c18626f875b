import { describe, expect, it } from 'vitest';
import { lowBalanceAlertField, positiveQuetzalesField, signedQuetzalesField, tariffField } from './form-fields';

function message(field: typeof tariffField, typed: string): string | number {
  const parsed = field.safeParse(typed);
  return parsed.success ? parsed.data : parsed.error.issues[0]!.message;
}

describe('money fields tell what is wrong with what was typed', () => {
  it('a top-up', () => {
    expect(message(positiveQuetzalesField, '-1')).toBe('El monto debe ser mayor que cero.');
    expect(message(positiveQuetzalesField, '0')).toBe('El monto debe ser mayor que cero.');
    expect(message(positiveQuetzalesField, '2.555')).toBe('Use como máximo dos decimales.');
    expect(message(positiveQuetzalesField, '100000000.01')).toBe('El monto máximo es Q 100,000,000.00.');
    expect(message(positiveQuetzalesField, 'diez')).toBe('Escriba el monto en quetzales, por ejemplo 1,234.50.');
    expect(message(positiveQuetzalesField, ' ')).toBe('Escriba un monto.');
    expect(message(positiveQuetzalesField, 'Q 1,234.5')).toBe(123450);
  });

  it('a tariff', () => {
    expect(message(tariffField, '-1')).toBe('La tarifa no puede ser negativa.');
    expect(message(tariffField, '0')).toBe(0);
    expect(message(tariffField, '10000.01')).toBe('La tarifa máxima es Q 10,000.00 por consulta.');
    expect(message(tariffField, '1.005')).toBe('Use como máximo dos decimales.');
  });

  it('an adjustment', () => {
    expect(message(signedQuetzalesField, '-5.00')).toBe(-500);
    expect(message(signedQuetzalesField, '+10')).toBe(1000);
    expect(message(signedQuetzalesField, '0.00')).toBe('El ajuste no puede ser cero.');
    expect(message(signedQuetzalesField, '-100000000.01')).toBe('El ajuste máximo es de Q 100,000,000.00, para sumar o para restar.');
    expect(message(signedQuetzalesField, '-2.555')).toBe('Use como máximo dos decimales.');
  });
});

describe('lowBalanceAlertField', () => {
  it('reads quetzales as centavos, empty as the default (null), and says what is wrong', () => {
    expect(lowBalanceAlertField.parse('150.50')).toBe(15_050);
    expect(lowBalanceAlertField.parse('0')).toBe(0);
    expect(lowBalanceAlertField.parse('  ')).toBeNull();
    expect(lowBalanceAlertField.safeParse('-5').error?.issues[0]?.message).toBe('El umbral no puede ser negativo.');
    expect(lowBalanceAlertField.safeParse('1.234').error?.issues[0]?.message).toBe('Use como máximo dos decimales.');
  });
});
