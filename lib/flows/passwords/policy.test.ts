import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { generatePassword } from '@/lib/platform/security/passwords';
import { resetEnvCache } from '@/tests/support/test-database';
import { guessablePasswordMessage, newPasswordProblem, PASSWORD_RULE_MESSAGES } from './policy';

describe('new console passwords', () => {
  it('refuses the passwords attackers try first, whatever their case and appended digits or symbols', async () => {
    for (const password of ['password1234', 'Password1234!', 'qwertyuiop123', '123456789012', 'PASSWORDPASSWORD', 'iloveyou2026', 'dragon123456789']) {
      expect(await newPasswordProblem(password), password).toBe(PASSWORD_RULE_MESSAGES.common);
    }
  });

  it('refuses repetitions, sequences, keyboard runs, the user\'s e-mail and name and the service\'s own words, saying why (issue 30, point 3)', async () => {
    const owner = { email: 'ana.lopez@coop-ejemplo.gt', name: 'Ana López' };
    expect(await newPasswordProblem('aaaaaaaaaaaa', owner)).toBe(guessablePasswordMessage('repeat'));
    expect(await newPasswordProblem(' '.repeat(12), owner)).toBe(guessablePasswordMessage('repeat'));
    expect(await newPasswordProblem('abcdefghijkl', owner)).toBe(guessablePasswordMessage('sequence'));
    expect(await newPasswordProblem('qwertyuiopas', owner)).not.toBeNull();
    expect(await newPasswordProblem('mnbvcxzlkjhg', owner)).toBe(guessablePasswordMessage('spatial'));
    expect(await newPasswordProblem('ana.lopez@coop-ejemplo.gt', owner)).toBe(guessablePasswordMessage('personal'));
    expect(await newPasswordProblem('ana.lopez.2026!', owner)).toBe(guessablePasswordMessage('personal'));
    expect(await newPasswordProblem('guatemala2026', owner)).toBe(guessablePasswordMessage('serviceWords'));
    expect(await newPasswordProblem('consultasgt1', owner)).toBe(guessablePasswordMessage('serviceWords'));
    expect(await newPasswordProblem('Consultas de Ana López', owner)).toBe(guessablePasswordMessage('personal'));
    expect(guessablePasswordMessage('spatial')).toBe(
      'Esa contraseña se adivina con facilidad: sigue una fila o un trazo del teclado (qwerty, asdf). Elija otra, por ejemplo una frase de varias palabras que no tenga que ver con usted ni con el servicio.',
    );
  });

  it("refuses a password made of the service's words or a date and nothing else but digits and symbols, saying which", async () => {
    const owner = { email: 'ana.lopez@coop-ejemplo.gt', name: 'Ana López' };
    const year = new Date().getFullYear();
    for (const password of ['Pasarela2026!', 'MiClave2026..', 'NIT576937K!!', 'Contraseña 2026!', 'CONTRASENA.2026.', 'recarga-portal-99', `Consultas${year}#`, 'nit 576937-k !!']) {
      expect(await newPasswordProblem(password, owner), password).toBe(guessablePasswordMessage('serviceWords'));
    }
    for (const password of ['Diciembre2026', 'miércoles 2026!!', 'MIERCOLES-2026', 'Setiembre.2025.', `Sábado${year + 5}!!`, 'lunes 12 de enero']) {
      expect(await newPasswordProblem(password, owner), password).toBe(guessablePasswordMessage('dateWords'));
    }
    expect(guessablePasswordMessage('serviceWords')).toBe(
      'Esa contraseña se adivina con facilidad: se arma solo con el nombre del servicio o sus palabras (pasarela, consultas, clave, NIT…), cifras y símbolos. Elija otra, por ejemplo una frase de varias palabras que no tenga que ver con usted ni con el servicio.',
    );
    expect(guessablePasswordMessage('dateWords')).toBe(
      'Esa contraseña se adivina con facilidad: se arma solo con un mes, un día de la semana o un año, cifras y símbolos. Elija otra, por ejemplo una frase de varias palabras que no tenga que ver con usted ni con el servicio.',
    );
  });

  // The sixth review: «576937-K.2026», the operator's NIT and the year, was accepted.
  it('refuses a NIT or CUI the service knows for the person, however written and padded: the operator\'s and the integration\'s', async () => {
    const refused = guessablePasswordMessage('identifier');
    expect(refused).toContain('lleva un NIT o un CUI que el servicio conoce');
    const integration = { email: 'conta@coop-ejemplo.gt', name: 'Luisa Pérez', identifiers: ['48291137', '1587564440904'] };
    for (const password of ['4829113-7.2026!', 'Cooperativa#48291137', 'x4829113x2026y', '4 8 2 9 1 1 3 - 7 hola mundo', 'tortuga1587564440904!', 'Mi empresa 4829113 en 2026']) {
      expect(await newPasswordProblem(password, integration), password).toBe(refused);
    }
    // The operator's NIT (the statements' and invoices' issuer), for everyone, console users too.
    const previous = { ISSUER_NIT: process.env.ISSUER_NIT };
    Object.assign(process.env, { ISSUER_NIT: '576937-K' });
    resetEnvCache();
    try {
      for (const password of ['576937-K.2026', '576937k/2026/nov', 'tortuga576937verde', '5 7 6 9 3 7 tortugas verdes']) {
        expect(await newPasswordProblem(password, {}), password).toBe(refused);
      }
      // Another NIT's digits are nobody's: a long passphrase with them passes.
      expect(await newPasswordProblem('tortugas verdes 8839201 en el lago', { identifiers: ['48291137'] })).toBeNull();
    } finally {
      for (const [name, value] of Object.entries(previous)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
      resetEnvCache();
    }
  });

  it('refuses anything shorter than 12 characters before looking it up', async () => {
    expect(await newPasswordProblem('xK9#mQ2$vL7')).toBe(PASSWORD_RULE_MESSAGES.tooShort);
  });

  it('accepts long passwords that are not on the list, and every generated one', async () => {
    const random = randomBytes(12).toString('base64url');
    for (const password of ['cafetal de Antigua al amanecer', 'xK9#mQ2$vL7!pR', 'volcán-pacaya-2026', 'caballo correcto batería grapa', 'la pasarela del lago en marzo', random]) {
      expect(await newPasswordProblem(password, { email: 'ana.lopez@coop-ejemplo.gt', name: 'Ana López' }), password).toBeNull();
    }
    for (let index = 0; index < 200; index++) {
      const generated = generatePassword();
      expect(await newPasswordProblem(generated, { email: 'ana.lopez@coop-ejemplo.gt', name: 'Ana López' }), generated).toBeNull();
    }
  });
});
