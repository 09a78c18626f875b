// The integrators' portal in the documentation (issue 33, points 8 and 9): /docs' section (its
// data, app/docs/portal-guide.ts), docs/integrators.md's section 9 and the README's table say what
// each role may do as the code that guards each page does, and the 402's next step leads to the
// portal without changing the contract's texts. e2e/docs.spec.ts reads the rendered /docs.
import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { PORTAL_GUIDE_PAGES, PORTAL_GUIDE_SESSION_HOURS, PORTAL_GUIDE_TWO_FACTOR_REQUIRED } from '@/app/docs/portal-guide';
import { CATALOG_MESSAGES } from '@/lib/contract/messages';
import { parseEnv } from '@/lib/root/settings';
import { buildOpenApiDocument } from '@/lib/surfaces/openapi/document';
import { INVITATION_VALID_HOURS } from '@/lib/flows/portal-identity/links';
import { portalTwoFactorRequired } from '@/lib/flows/portal-identity/policy';
import { PORTAL_ROLES } from '@/lib/flows/portal-identity/roles';
import { SESSION_SETTINGS } from '@/lib/flows/auth/session-settings';
import { RECOVERY_CODE_COUNT } from '@/lib/flows/two-factor/recovery-codes';
import { marksOf, markdownRoleTable, PAGE_ROLES_IN_CODE, TWO_FACTOR_ROW } from '../support/portal-role-docs';
import { setProcessSlot } from '@/lib/platform/runtime/process-state';

const guide = fs.readFileSync('docs/integrators.md', 'utf8');
const readme = fs.readFileSync('README.md', 'utf8');
const portalChapter = guide.slice(guide.indexOf('## 9. El portal de integradores'));


/** Who must enrol in two-factor sign-in under APP_ENV (lib/flows/portal-identity/policy.ts, which reads env()). */
function twoFactorRequiredIn(appEnv: 'production' | 'development'): string[] {
  setProcessSlot('env', { ...parseEnv({}), APP_ENV: appEnv });
  return PORTAL_ROLES.filter((role) => portalTwoFactorRequired(role));
}

afterEach(() => {
  setProcessSlot('env', undefined);
});

/** The roles of every page in the code, and the two-factor row, as table marks. */
function rolesInCode(): Map<string, ReturnType<typeof marksOf>> {
  const expected = new Map(Object.entries(PAGE_ROLES_IN_CODE).map(([page, roles]) => [page, marksOf(roles)]));
  expected.set(TWO_FACTOR_ROW, marksOf(PORTAL_ROLES.filter((role) => twoFactorRequiredIn('production').includes(role))));
  return expected;
}

describe("the portal's role table", () => {
  it("in /docs gives each page the roles its page admits, and names every page", () => {
    const documented = new Map(PORTAL_GUIDE_PAGES.map((row) => [row.page, marksOf(row.roles)]));
    expect(documented).toEqual(new Map(Object.entries(PAGE_ROLES_IN_CODE).map(([page, roles]) => [page, marksOf(roles)])));
  });

  it('in /docs requires two-factor sign-in of the roles lib/flows/portal-identity/policy.ts requires in production, and of none in the sandbox', () => {
    expect(marksOf(PORTAL_GUIDE_TWO_FACTOR_REQUIRED)).toEqual(marksOf(PORTAL_ROLES.filter((role) => twoFactorRequiredIn('production').includes(role))));
    expect(twoFactorRequiredIn('development')).toEqual([]);
  });

  it('in docs/integrators.md, section 9, is the code\'s, row by row', () => {
    expect(portalChapter).not.toBe(guide);
    expect(markdownRoleTable(portalChapter)).toEqual(rolesInCode());
  });

  it("in the README says of each page it lists what the code does", () => {
    const expected = rolesInCode();
    const rows = markdownRoleTable(readme.slice(readme.indexOf("## The integrators' portal")));
    expect(rows.size).toBeGreaterThanOrEqual(5);
    for (const [page, marks] of rows) {
      expect(expected.has(page), `the README's row «${page}» is no page of the portal`).toBe(true);
      expect(marks, page).toEqual(expected.get(page));
    }
  });
});

describe("the portal's chapter of docs/integrators.md", () => {
  it('says how to get in, the sandbox, and the figures the code uses', () => {
    for (const heading of ['### Cómo entrar', '### Qué puede hacer cada rol', '### Verificación en dos pasos y sesiones', '### Sandbox: el portal del ambiente de desarrollo']) {
      expect(portalChapter).toContain(heading);
    }
    expect(portalChapter).toContain('invitación para el **primer propietario**');
    expect(portalChapter).toContain('«Entorno de pruebas (sandbox)»');
    expect(portalChapter).toContain(`un enlace de un solo uso que vale ${INVITATION_VALID_HOURS} horas`);
    expect(portalChapter).toContain(`y ${RECOVERY_CODE_COUNT} códigos de recuperación`);
    expect(PORTAL_GUIDE_SESSION_HOURS).toBe(SESSION_SETTINGS.read({}).SESSION_MAX_HOURS);
    expect(portalChapter).toContain(`Una sesión dura ${PORTAL_GUIDE_SESSION_HOURS} horas desde el ingreso`);
  });

  it('sends a 402 to the balance in the portal, which every role sees, and a top-up to Recargas, with the contract\'s messages unchanged', () => {
    expect(guide).not.toContain('pídalo al administrador');
    expect(guide).toContain('Ninguna de las cinco consultas lee ni recarga el saldo: su sistema lo lee con `GET /cuenta`');
    expect(guide).toContain('y sus personas en el portal de integradores (en **Inicio**, todos los roles');
    const row402 = guide.split('\n').find((line) => line.startsWith('| 402 |'))!;
    expect(row402).toContain('(Inicio, Movimientos; sección 9)');
    expect(row402).toContain('recargar: depositar en una cuenta del servicio y reportarlo en Recargas del portal (propietario o facturación)');
    expect(portalChapter).toContain('Véalo en el portal, en **Inicio** (todos los roles lo ven)');
    // Inicio's row says the same of who sees the balance.
    expect(PORTAL_GUIDE_PAGES.find((row) => row.page === 'Inicio')!.what).toContain('el saldo (todos los roles, solo lectura)');
    for (const old of ['pida una recarga', 'pedir una recarga', 'pida las recargas', 'pida una rotación']) expect(guide, old).not.toContain(old);
    expect(portalChapter).toContain(`\`${CATALOG_MESSAGES.balanceExhausted}\``);
    expect(portalChapter).toContain(`\`${CATALOG_MESSAGES.sourceBalanceExhausted}\``);
  });
});

describe("where to deposit, in docs/integrators.md and the operator's settings", () => {
  it('says where the accounts are shown, what to write on the slip and what to do when none is shown', () => {
    const section = portalChapter.slice(portalChapter.indexOf('### Dónde depositar para recargar'));
    expect(section).not.toBe(portalChapter);
    expect(section).toContain('aparecen en **Recargas** del portal, junto al formulario, y en `/docs` de cada ambiente');
    expect(section).toContain('escriba el login de su integración (el de la cabecera `x-integracion-login`');
    expect(section).toContain('Si la página no\nmuestra ninguna cuenta, pida los datos al equipo del servicio');
    for (const file of ['.env.example', 'docs/operations.md']) expect(fs.readFileSync(file, 'utf8'), file).toContain('TOP_UP_BANK_ACCOUNTS');
  });
});

describe("the 402 in /docs' operations (the OpenAPI document)", () => {
  it('keeps the contract\'s two messages and points to Inicio, Movimientos and Recargas; a rotation to Credenciales', () => {
    const document = buildOpenApiDocument('https://gateway.example.com/api');
    for (const path of ['/catalogos/cui-nit', '/catalogos/rtu', '/catalogos/omisos']) {
      const response = (document.paths[path] as { post: { responses: Record<string, { description: string; content: Record<string, { examples: Record<string, { value: unknown }> }> }> } }).post.responses['402']!;
      expect(response.description).toContain('portal de integradores (Inicio)');
      expect(response.description).toContain('(Movimientos); para recargar, un propietario o facturación deposita en una cuenta del servicio y lo reporta en Recargas del portal');
      expect(response.description).not.toContain('pida una recarga');
      expect(Object.values(response.content['application/json']!.examples).map((example) => example.value)).toEqual([
        { message: CATALOG_MESSAGES.balanceExhausted },
        { message: CATALOG_MESSAGES.sourceBalanceExhausted },
      ]);
    }
    expect(document.info.description).toContain('rótelo con superposición (1 hora, 24 horas o 7 días) en Credenciales del portal de integradores');
    expect(document.info.description).not.toContain('pida una rotación');
  });
});
