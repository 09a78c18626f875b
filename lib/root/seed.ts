import { countConsoleUsers, createConsoleUser } from '@/lib/flows/auth/users';
import { createIntegration, listIntegrations, setConstancias } from '@/lib/flows/integration-management/service';
import { FLAG_NAMES } from '@/lib/core/integrations/flags';
import type { Actor } from '@/lib/core/audit/audit';

const SEED_ACTOR: Actor = { kind: 'system', name: 'seed' };
export const DEMO_ADMIN_EMAIL = 'admin@example.com';
export const DEMO_INTEGRATION_NAME = 'demo';
const DEMO_TARIFF_CENTAVOS = 150; // Q 1.50 per catalog query
const DEMO_BALANCE_CENTAVOS = 50_000; // Q 500.00

export interface SeededCredentials {
  admin?: { email: string; password: string };
  integration?: { nombre: string; token: string; receipts: boolean };
}

/**
 * Development seed: on an empty database, one admin and one demo integration with every lookup
 * enabled, receipts (constancias) on so that a developer can ask for one at once, and a balance.
 * Returns the secrets so the caller can print them once; they are stored only as hashes. Never
 * called in production (env refuses SEED_ON_START there).
 */
export async function seedDevelopmentData(): Promise<SeededCredentials> {
  const seeded: SeededCredentials = {};
  if ((await countConsoleUsers()) === 0) {
    // The developer who starts the app reads this password and is this admin: nobody else saw it.
    const admin = await createConsoleUser(SEED_ACTOR, { email: DEMO_ADMIN_EMAIL, name: 'Administración', role: 'admin', mustChangePassword: false });
    if (admin.ok) seeded.admin = { email: admin.value.user.email, password: admin.value.password };
  }
  if ((await listIntegrations()).length === 0) {
    const demo = await createIntegration(SEED_ACTOR, {
      nombre: DEMO_INTEGRATION_NAME,
      tariffCentavos: DEMO_TARIFF_CENTAVOS,
      flags: Object.fromEntries(FLAG_NAMES.map((flag) => [flag, true])),
      initialBalanceCentavos: DEMO_BALANCE_CENTAVOS,
      note: 'Saldo de demostración',
    });
    if (demo.ok) {
      const receipts = await setConstancias(SEED_ACTOR, demo.value.integration.id, true);
      seeded.integration = { nombre: demo.value.integration.nombre, token: demo.value.token, receipts: receipts.ok };
    }
  }
  return seeded;
}

export function describeSeed(seeded: SeededCredentials, baseUrl: string): string {
  const lines: string[] = [];
  if (seeded.admin) {
    lines.push(
      'Console admin created (shown once; change it after signing in):',
      `  ${baseUrl}/admin   email: ${seeded.admin.email}   password: ${seeded.admin.password}`,
    );
  }
  if (seeded.integration) {
    lines.push(
      'Demo integration created with all five lookups enabled (token shown once):',
      `  x-integracion-login: ${seeded.integration.nombre}`,
      `  x-integracion-token: ${seeded.integration.token}`,
      'Try it:',
      `  curl -s -X POST ${baseUrl}/api/catalogos/cui-nit -H 'content-type: application/json' \\`,
      `    -H 'x-integracion-login: ${seeded.integration.nombre}' -H 'x-integracion-token: ${seeded.integration.token}' \\`,
      `    -d '{"nit":"576937-K"}'`,
    );
    if (seeded.integration.receipts) lines.push("Add -H 'x-constancia: true' for a signed receipt of the answer: x-constancia-url says where to read it.");
  }
  return lines.join('\n');
}
