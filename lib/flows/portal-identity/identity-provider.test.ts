// An integration's own identity provider for the portal (issue 67), as its owners configure it in
// "Equipo": saved only once the issuer's discovery document answers as that issuer, read back
// without the secret, one integration per e-mail domain, the webhooks' policy for local addresses,
// the secret kept when left empty, break-glass accounts that are members, and audited without it.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '@/db/client';
import { auditLog, integrationIdentityProviders, portalUsers } from '@/db/schema';
import type { IntegratorActor } from '@/lib/core/audit/audit';
import { open } from '@/lib/core/sealing/envelope';
import { startSimulator, type RunningSimulator } from '@/simulator/server';
import { createTestIntegration, type TestIntegration } from '@/tests/conformance/harness';
import { addPortalMember } from '@/tests/support/people';
import { resetEnvCache, useTestDatabase, type TestDatabase } from '@/tests/support/test-database';
import {
  identityProviderErrorField,
  identityProviderRedirectUris,
  readIntegrationIdentityProvider,
  removeIntegrationIdentityProvider,
  saveIntegrationIdentityProvider,
  type IdentityProviderInput,
} from './identity-provider';

const SECRET = 'secreto-del-cliente-en-el-proveedor-7f3a';
const OTHER_SECRET = 'otro-secreto-del-cliente-9b1c';
const saved = { ...process.env };
let testDatabase: TestDatabase;
let simulator: RunningSimulator;
let impostor: { url: string; close: () => Promise<void> };
let acme: TestIntegration;
let globex: TestIntegration;
let owner: IntegratorActor;
let developer: IntegratorActor;
let globexOwner: IntegratorActor;

function allowLocalTargets(allowed: boolean): void {
  process.env.INTEGRATOR_WEBHOOK_ALLOW_LOCAL_TARGETS = allowed ? 'true' : 'false';
  resetEnvCache();
}

async function memberActor(integration: TestIntegration, email: string, role: string): Promise<IntegratorActor> {
  await addPortalMember(integration, email, role);
  const [row] = await (await db()).select({ id: portalUsers.id }).from(portalUsers).where(eq(portalUsers.email, email));
  return { kind: 'integrator', id: row!.id, email, integrationId: integration.id, integrationName: integration.nombre };
}

function input(overrides: Partial<IdentityProviderInput> = {}): IdentityProviderInput {
  return {
    issuer: simulator.oidc.issuer(),
    clientId: 'portal-acme',
    clientSecret: SECRET,
    emailDomain: 'Acme.Example',
    roleClaim: '',
    roleValues: { propietario: 'ti-admins', desarrollador: 'desarrollo, integraciones', facturacion: '' },
    breakGlassEmails: 'DUENA@acme.example',
    ...overrides,
  };
}

/**
 * Discovery documents that are not the issuer's: one naming another issuer, one without its keys'
 * address, and a web page where the document should be.
 */
async function startImpostor(): Promise<{ url: string; close: () => Promise<void> }> {
  let base = '';
  const server = createServer((request, response) => {
    const path = request.url ?? '/';
    const document = (issuer: string, extra: Record<string, unknown> = {}) => ({
      issuer,
      authorization_endpoint: `${issuer}/authorize`,
      token_endpoint: `${issuer}/token`,
      ...extra,
    });
    if (path === '/otro-emisor/.well-known/openid-configuration') {
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(document('https://login.otro.example/v2.0', { jwks_uri: 'https://login.otro.example/keys' })));
    } else if (path === '/sin-claves/.well-known/openid-configuration') {
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(document(`${base}/sin-claves`)));
    } else if (path === '/pagina/.well-known/openid-configuration') {
      response.writeHead(200, { 'content-type': 'text/html' }).end('<h1>Bienvenido</h1>');
    } else {
      response.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url: base, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

async function auditRows(integrationId: number) {
  return (await db())
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.targetType, 'integration'), eq(auditLog.targetId, String(integrationId))));
}

beforeAll(async () => {
  testDatabase = await useTestDatabase();
  allowLocalTargets(true);
  simulator = await startSimulator({ port: 0 });
  impostor = await startImpostor();
  acme = await createTestIntegration('acme-idp');
  globex = await createTestIntegration('globex-idp');
  owner = await memberActor(acme, 'duena@acme.example', 'propietario');
  developer = await memberActor(acme, 'dev@acme.example', 'desarrollador');
  globexOwner = await memberActor(globex, 'jefe@globex.example', 'propietario');
});

afterAll(async () => {
  await simulator?.close();
  await impostor?.close();
  for (const name of Object.keys(process.env)) if (!(name in saved)) delete process.env[name];
  Object.assign(process.env, saved);
  resetEnvCache();
  await testDatabase?.cleanup();
});

describe("an integration's identity provider", () => {
  it('tells the owner what to register at the provider', () => {
    expect(identityProviderRedirectUris('https://pasarela.example/')).toEqual({
      callback: 'https://pasarela.example/portal/sso/retorno',
      backchannelLogout: 'https://pasarela.example/api/portal/sso/cierre-de-sesion',
    });
  });

  it('is saved once its discovery document answers as the issuer, and read back without the secret', async () => {
    const result = await saveIntegrationIdentityProvider(owner, acme.id, input({ issuer: `${simulator.oidc.issuer()}/` }));
    expect(result.ok, JSON.stringify(result)).toBe(true);
    const view = await readIntegrationIdentityProvider(acme.id);
    expect(view).toEqual({
      integrationId: acme.id,
      // As the provider names itself (its ID tokens carry it so), not as typed.
      issuer: simulator.oidc.issuer(),
      clientId: 'portal-acme',
      emailDomain: 'acme.example',
      roleClaim: 'groups',
      roleValues: { propietario: ['ti-admins'], desarrollador: ['desarrollo', 'integraciones'], facturacion: [] },
      breakGlassEmails: ['duena@acme.example'],
      updatedAt: expect.any(Date),
    });
    expect(JSON.stringify(view)).not.toContain(SECRET);
    expect(await readIntegrationIdentityProvider(globex.id)).toBeNull();

    const [row] = await (await db()).select().from(integrationIdentityProviders).where(eq(integrationIdentityProviders.integrationId, acme.id));
    expect(row!.clientSecretSealed).toMatch(/^pd1:/);
    expect(open(row!.clientSecretSealed, 'identity_provider_client_secret')).toBe(SECRET);

    const [audit] = (await auditRows(acme.id)).filter((entry) => entry.action === 'integration.identity_provider_set');
    expect(audit!.actor).toContain('duena@acme.example');
    expect(audit!.before).toBeNull();
    expect(audit!.after).toMatchObject({ issuer: simulator.oidc.issuer(), emailDomain: 'acme.example', clientSecret: 'cambiado' });
  });

  it('refuses a second integration with the same e-mail domain', async () => {
    const result = await saveIntegrationIdentityProvider(globexOwner, globex.id, input({ emailDomain: '@ACME.example', breakGlassEmails: '' }));
    expect(result).toMatchObject({ ok: false, error: { code: 'domain_taken' } });
    expect(!result.ok && result.error.message).toMatch(/^Otra integración ya usa el dominio acme\.example para entrar con su proveedor de identidad/);
    expect(!result.ok && identityProviderErrorField(result.error.code)).toBe('emailDomain');
    expect(await readIntegrationIdentityProvider(globex.id)).toBeNull();
  });

  it('refuses an issuer whose discovery document names another issuer, or does not answer one', async () => {
    const refusal = async (issuer: string) => {
      const result = await saveIntegrationIdentityProvider(globexOwner, globex.id, input({ issuer, emailDomain: 'globex.example', breakGlassEmails: '' }));
      expect(result, issuer).toMatchObject({ ok: false, error: { code: 'discovery' } });
      return !result.ok ? result.error.message : '';
    };
    expect(await refusal(`${impostor.url}/otro-emisor`)).toBe(
      'Su proveedor se presenta con otro emisor: https://login.otro.example/v2.0. Escriba el emisor exactamente como lo publica su proveedor.',
    );
    expect(await refusal(`${impostor.url}/sin-claves`)).toMatch(/^No pudimos comprobar su proveedor: su configuración no indica la dirección de sus claves de firma\./);
    expect(await refusal(`${impostor.url}/pagina`)).toMatch(/no respondió con la configuración de OpenID Connect \(un documento JSON\)/);
    expect(await refusal(`${simulator.url}/no-hay-proveedor`)).toMatch(/^No pudimos comprobar su proveedor: .*respondió con el código 404/);

    simulator.oidc.setFaults(['discovery_down']);
    try {
      expect(await refusal(simulator.oidc.issuer())).toContain('respondió con el código 503');
    } finally {
      simulator.oidc.setFaults([]);
    }
    expect(await readIntegrationIdentityProvider(globex.id)).toBeNull();
  });

  it('refuses a local http issuer when local targets are not allowed, as webhooks do', async () => {
    allowLocalTargets(false);
    try {
      const http = await saveIntegrationIdentityProvider(globexOwner, globex.id, input({ emailDomain: 'globex.example', breakGlassEmails: '' }));
      expect(http).toEqual({ ok: false, error: { code: 'invalid_issuer', message: 'La dirección del emisor no sirve: debe empezar con https://.' } });
      const loopback = await saveIntegrationIdentityProvider(globexOwner, globex.id, input({ issuer: 'https://127.0.0.1/oidc', emailDomain: 'globex.example', breakGlassEmails: '' }));
      expect(loopback).toMatchObject({ ok: false, error: { code: 'invalid_issuer', message: 'La dirección del emisor no sirve: la dirección 127.0.0.1 es privada, local o reservada.' } });
      const internal = await saveIntegrationIdentityProvider(globexOwner, globex.id, input({ issuer: 'https://intranet/oidc', emailDomain: 'globex.example', breakGlassEmails: '' }));
      expect(internal).toMatchObject({ ok: false, error: { code: 'invalid_issuer', message: 'La dirección del emisor no sirve: el nombre no es público.' } });
    } finally {
      allowLocalTargets(true);
    }
  });

  it('checks every field first, in words', async () => {
    const cases: Array<[Partial<IdentityProviderInput>, string, RegExp]> = [
      [{ issuer: '' }, 'invalid_issuer', /^Escriba el emisor/],
      [{ issuer: `${simulator.oidc.issuer()}?tenant=1` }, 'invalid_issuer', /no lleva «\?» ni «#»/],
      [{ clientId: '  ' }, 'invalid_clientId', /^Escriba el id de cliente/],
      [{ clientSecret: '' }, 'invalid_clientSecret', /^Escriba el secreto del cliente/],
      [{ emailDomain: 'persona@globex.example' }, 'invalid_emailDomain', /^Escriba el dominio de correo/],
      [{ emailDomain: 'globex' }, 'invalid_emailDomain', /^Escriba el dominio de correo/],
      [{ emailDomain: 'Gmail.com' }, 'invalid_emailDomain', /servicio de correo abierto a cualquiera/],
      [{ roleClaim: 'mis grupos' }, 'invalid_roleClaim', /sin espacios/],
      [{ roleValues: { propietario: ' , ', desarrollador: '', facturacion: '' } }, 'invalid_roleValues', /al menos un valor/],
      [{ breakGlassEmails: 'jefe@globex.example, no-es-correo' }, 'invalid_breakGlassEmails', /«no-es-correo» no es un correo válido/],
    ];
    for (const [overrides, code, message] of cases) {
      const result = await saveIntegrationIdentityProvider(globexOwner, globex.id, input({ emailDomain: 'globex.example', breakGlassEmails: '', ...overrides }));
      expect(result, JSON.stringify(overrides)).toMatchObject({ ok: false, error: { code } });
      expect(!result.ok && result.error.message).toMatch(message);
    }
  });

  it('takes break-glass accounts only among the current members of the team', async () => {
    const stranger = await saveIntegrationIdentityProvider(globexOwner, globex.id, input({ emailDomain: 'globex.example', breakGlassEmails: 'jefe@globex.example, duena@acme.example' }));
    expect(stranger).toMatchObject({ ok: false, error: { code: 'not_member', message: expect.stringContaining('duena@acme.example no lo es') } });
    expect(!stranger.ok && identityProviderErrorField(stranger.error.code)).toBe('breakGlassEmails');
  });

  it('is changed only by an owner of the integration', async () => {
    const byDeveloper = await saveIntegrationIdentityProvider(developer, acme.id, input());
    expect(byDeveloper).toMatchObject({ ok: false, error: { code: 'not_owner' } });
    const otherIntegration = await removeIntegrationIdentityProvider(globexOwner, acme.id);
    expect(otherIntegration).toMatchObject({ ok: false, error: { code: 'not_owner' } });
    expect(await readIntegrationIdentityProvider(acme.id)).not.toBeNull();
  });

  it('keeps the stored secret when changed with an empty one, unless the issuer changes', async () => {
    const handle = await db();
    const [before] = await handle.select().from(integrationIdentityProviders).where(eq(integrationIdentityProviders.integrationId, acme.id));
    const changed = await saveIntegrationIdentityProvider(
      owner,
      acme.id,
      input({ clientSecret: '', roleClaim: 'roles', roleValues: { propietario: 'ti-admins', desarrollador: '', facturacion: 'contabilidad' }, breakGlassEmails: '' }),
    );
    expect(changed.ok, JSON.stringify(changed)).toBe(true);
    const [after] = await handle.select().from(integrationIdentityProviders).where(eq(integrationIdentityProviders.integrationId, acme.id));
    expect(after!.clientSecretSealed).toBe(before!.clientSecretSealed);
    expect(after!.roleClaim).toBe('roles');
    expect(after!.roleValues).toEqual({ propietario: ['ti-admins'], desarrollador: [], facturacion: ['contabilidad'] });
    expect(after!.breakGlassEmails).toEqual([]);

    const entries = (await auditRows(acme.id)).filter((entry) => entry.action === 'integration.identity_provider_set');
    const last = entries.sort((a, b) => a.id - b.id).at(-1)!;
    expect(last.before).toMatchObject({ roleClaim: 'groups', breakGlassEmails: ['duena@acme.example'] });
    expect(last.after).toMatchObject({ roleClaim: 'roles', breakGlassEmails: [] });
    expect(last.after).not.toHaveProperty('clientSecret');

    // The stored secret goes to no other provider's token endpoint.
    const moved = await saveIntegrationIdentityProvider(owner, acme.id, input({ issuer: `${simulator.url}/otro-proveedor`, clientSecret: '' }));
    expect(moved).toMatchObject({ ok: false, error: { code: 'invalid_clientSecret', message: expect.stringContaining('Cambió el emisor') } });

    const replaced = await saveIntegrationIdentityProvider(owner, acme.id, input({ clientSecret: OTHER_SECRET }));
    expect(replaced.ok).toBe(true);
    const [rotated] = await handle.select().from(integrationIdentityProviders).where(eq(integrationIdentityProviders.integrationId, acme.id));
    expect(open(rotated!.clientSecretSealed, 'identity_provider_client_secret')).toBe(OTHER_SECRET);
  });

  it('is removed, audited, and the audit never holds the secret', async () => {
    const removed = await removeIntegrationIdentityProvider(owner, acme.id);
    expect(removed).toMatchObject({ ok: true, value: { emailDomain: 'acme.example' } });
    expect(await readIntegrationIdentityProvider(acme.id)).toBeNull();
    expect(await removeIntegrationIdentityProvider(owner, acme.id)).toMatchObject({ ok: false, error: { code: 'not_configured' } });

    const entries = await auditRows(acme.id);
    const removal = entries.find((entry) => entry.action === 'integration.identity_provider_remove');
    expect(removal).toMatchObject({ before: { emailDomain: 'acme.example', issuer: simulator.oidc.issuer() }, after: null });
    expect(entries.filter((entry) => entry.action === 'integration.identity_provider_set')).toHaveLength(3);
    const everything = JSON.stringify(await (await db()).select().from(auditLog));
    expect(everything).not.toContain(SECRET);
    expect(everything).not.toContain(OTHER_SECRET);
    expect(everything).not.toContain('pd1:');

    // Its domain is free again for another integration.
    const taken = await saveIntegrationIdentityProvider(globexOwner, globex.id, input({ emailDomain: 'acme.example', breakGlassEmails: 'jefe@globex.example' }));
    expect(taken.ok, JSON.stringify(taken)).toBe(true);
  });
});
