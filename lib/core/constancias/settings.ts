import { z } from 'zod';
import { defineSettings, type SettingsOf } from '@/lib/platform/settings/fragment';
import { integer, optional } from '@/lib/platform/settings/values';

// Constancias de consulta (docs/constancias.md): the operator's signing keys and how often the log's
// head is signed. Development generates one key into .data/ (keys.ts).
export const CONSTANCIA_SETTINGS = defineSettings({
  title: 'Constancias de consulta (lib/core/constancias)',
  shape: {
    CONSTANCIA_SIGNING_KEYS: optional(z.string().min(2)),
    CONSTANCIA_SIGNING_KEYS_FILE: optional(z.string().min(1)),
    CONSTANCIA_HEAD_INTERVAL_SECONDS: integer(300, 5, 86_400),
  },
  docs: {
    CONSTANCIA_SIGNING_KEYS:
      'Secret: the signing keys, a JSON list of `{kid, jwk (Ed25519, with d while it signs), firmaDesde, firmaHasta}` (`npm run cli -- constancias:nueva-clave` prints one). Or CONSTANCIA_SIGNING_KEYS_FILE. Development generates one into .data/.',
    CONSTANCIA_SIGNING_KEYS_FILE: 'A file holding the same JSON list (a mounted secret). Production requires it or CONSTANCIA_SIGNING_KEYS.',
    CONSTANCIA_HEAD_INTERVAL_SECONDS: "How often the log's head is signed and published; a receipt is in a published head within this time.",
  },
  refine: (settings, ctx, appEnv) => {
    if (settings.CONSTANCIA_SIGNING_KEYS && settings.CONSTANCIA_SIGNING_KEYS_FILE) {
      ctx.addIssue({ code: 'custom', path: ['CONSTANCIA_SIGNING_KEYS_FILE'], message: 'set CONSTANCIA_SIGNING_KEYS or CONSTANCIA_SIGNING_KEYS_FILE, not both' });
    }
    // Receipts outlive the deployment: production never signs with a key it made up.
    if (appEnv === 'production' && !settings.CONSTANCIA_SIGNING_KEYS && !settings.CONSTANCIA_SIGNING_KEYS_FILE) {
      ctx.addIssue({ code: 'custom', path: ['CONSTANCIA_SIGNING_KEYS'], message: 'CONSTANCIA_SIGNING_KEYS or CONSTANCIA_SIGNING_KEYS_FILE is required when APP_ENV=production' });
    }
  },
});

export type ConstanciaSettings = SettingsOf<typeof CONSTANCIA_SETTINGS>;

export const constanciaSettings = (): ConstanciaSettings => CONSTANCIA_SETTINGS.current();
