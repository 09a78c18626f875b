import { describe, expect, it } from 'vitest';
import { safeReturnPath, signInPath } from './return-path';

describe('safeReturnPath (issue 24, point 7)', () => {
  it('takes back a console page with its query', () => {
    expect(safeReturnPath('/admin/registros/32')).toBe('/admin/registros/32');
    expect(safeReturnPath('/admin/auditoria?accion=user.create&pagina=2')).toBe('/admin/auditoria?accion=user.create&pagina=2');
    expect(safeReturnPath('/admin')).toBe('/admin');
  });

  it('never takes another site, nor a page outside the console, nor the sign-in page itself', () => {
    for (const value of [
      'https://evil.example/admin',
      '//evil.example/admin',
      '/\\evil.example/admin',
      '/admin\\@evil.example',
      'javascript:alert(1)',
      '/adminevil',
      '/admin/../api/metrics',
      '/admin/%2e%2e/docs',
      '/docs',
      '/admin/login',
      '/admin/login?volver=/admin/usuarios',
      '/admin/\u0000x',
      ' /admin',
      '',
      undefined,
      ['/admin/usuarios'],
    ]) {
      expect(safeReturnPath(value), String(value)).toBeUndefined();
    }
  });

  it('builds the sign-in link: the requested page and the reason, the Panel left out', () => {
    expect(signInPath('/admin/registros/32')).toBe('/admin/login?volver=%2Fadmin%2Fregistros%2F32');
    expect(signInPath('/admin/integraciones/4?pagina=2', 'sesion')).toBe('/admin/login?motivo=sesion&volver=%2Fadmin%2Fintegraciones%2F4%3Fpagina%3D2');
    expect(signInPath('/admin', 'sesion')).toBe('/admin/login?motivo=sesion');
    expect(signInPath('//evil.example/admin')).toBe('/admin/login');
    expect(signInPath(null)).toBe('/admin/login');
  });
});
