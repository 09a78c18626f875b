import { describe, expect, it } from 'vitest';
import { generatePassword } from '@/lib/security/passwords';
import { isCommonPassword, newPasswordProblem, PASSWORD_RULE_MESSAGES } from './policy';

describe('new console passwords', () => {
  it('refuses the passwords attackers try first, whatever their case and appended digits or symbols', () => {
    for (const password of ['password1234', 'Password1234!', 'qwertyuiop123', '123456789012', 'PASSWORDPASSWORD', 'iloveyou2026', 'dragon123456789']) {
      expect(newPasswordProblem(password), password).toBe(PASSWORD_RULE_MESSAGES.common);
    }
  });

  it('refuses anything shorter than 12 characters before looking it up', () => {
    expect(newPasswordProblem('xK9#mQ2$vL7')).toBe(PASSWORD_RULE_MESSAGES.tooShort);
  });

  it('accepts long passwords that are not on the list, and every generated one', () => {
    for (const password of ['cafetal de Antigua al amanecer', 'xK9#mQ2$vL7!pR', 'volcán-pacaya-2026']) {
      expect(newPasswordProblem(password), password).toBeNull();
    }
    for (let index = 0; index < 200; index++) expect(isCommonPassword(generatePassword())).toBe(false);
  });
});
