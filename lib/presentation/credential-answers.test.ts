import { describe, expect, it } from 'vitest';
import { allowListSavedMessage } from './credential-answers';

describe('allowListSavedMessage', () => {
  it('calls a single address an address', () => {
    expect(allowListSavedMessage(['203.0.113.7'])).toBe('Lista guardada: solo se aceptan solicitudes desde la dirección 203.0.113.7.');
    expect(allowListSavedMessage(['2001:db8::1/128'])).toBe('Lista guardada: solo se aceptan solicitudes desde la dirección 2001:db8::1.');
  });

  it('calls a range a range, with its size', () => {
    expect(allowListSavedMessage(['198.51.100.0/24'])).toBe('Lista guardada: solo se aceptan solicitudes desde el rango 198.51.100.0/24 (256 direcciones).');
    expect(allowListSavedMessage(['10.0.0.0/16'])).toBe('Lista guardada: solo se aceptan solicitudes desde el rango 10.0.0.0/16 (65,536 direcciones).');
    expect(allowListSavedMessage(['2001:db8::/64'])).toContain('el rango 2001:db8::/64 (18,446,744,073,709,551,616 direcciones)');
    expect(allowListSavedMessage(['2001:db8::/32'])).toContain('el rango 2001:db8::/32 (2^96 direcciones)');
  });

  it('names a few entries and counts many', () => {
    expect(allowListSavedMessage(['203.0.113.0/24', '10.63.0.3'])).toBe(
      'Lista guardada: solo se aceptan solicitudes desde esas 2 entradas: el rango 203.0.113.0/24 (256 direcciones) y la dirección 10.63.0.3.',
    );
    const many = ['10.0.0.1', '10.0.0.2', '10.0.0.3', '10.0.0.4', '192.0.2.0/28', '198.51.100.0/24'];
    expect(allowListSavedMessage(many)).toBe('Lista guardada: solo se aceptan solicitudes desde esas 6 entradas (4 direcciones y 2 rangos).');
  });

  it('says an empty list accepts any address', () => {
    expect(allowListSavedMessage([])).toBe('Lista vacía: se aceptan solicitudes desde cualquier dirección.');
  });
});
