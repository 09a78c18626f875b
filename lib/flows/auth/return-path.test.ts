import { describe, expect, it } from 'vitest';
import { PORTAL_AREA, safeReturnPath, signInPath, stepPath } from './return-path';

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

describe('the portal’s return path', () => {
  it('takes back a portal page with its query, never the console, another site nor a sign-in step', () => {
    expect(safeReturnPath('/portal/movimientos?pagina=2', PORTAL_AREA)).toBe('/portal/movimientos?pagina=2');
    expect(safeReturnPath('/portal', PORTAL_AREA)).toBe('/portal');
    for (const value of [
      '//evil.example',
      'https://evil.example/portal',
      '/\\evil.example/portal',
      '/portal/..//evil.example',
      '/portal/%2e%2e/admin',
      '/portal/%2e%2e%2fadmin',
      '/portal/x%5c..%5cadmin',
      '/portalevil',
      '/admin/usuarios',
      '/portal/ingresar?volver=/portal/equipo',
      '/portal/verificacion',
      '/portal/activar-verificacion',
    ]) {
      expect(safeReturnPath(value, PORTAL_AREA), value).toBeUndefined();
    }
    // And a portal page is not a console page.
    expect(safeReturnPath('/portal/movimientos')).toBeUndefined();
  });

  it('builds the portal’s sign-in and second-factor links', () => {
    expect(signInPath('/portal/recargas', 'sesion', PORTAL_AREA)).toBe('/portal/ingresar?motivo=sesion&volver=%2Fportal%2Frecargas');
    expect(signInPath('/portal', undefined, PORTAL_AREA)).toBe('/portal/ingresar');
    expect(signInPath('/admin/usuarios', undefined, PORTAL_AREA)).toBe('/portal/ingresar');
    expect(stepPath('/portal/verificacion', '/portal/consultas?lookup=rtu', PORTAL_AREA)).toBe('/portal/verificacion?volver=%2Fportal%2Fconsultas%3Flookup%3Drtu');
    expect(stepPath('/portal/verificacion', '//evil.example', PORTAL_AREA)).toBe('/portal/verificacion');
  });
});
