'use client';

import { ActionForm, Field } from '@/components/console/action-form';
import { SecretReveal } from '@/components/console/secret-reveal';
import type { ActionResult } from '@/lib/auth/action';
import { OVERLAP_LABELS, OVERLAP_PRESET_NAMES } from '@/lib/credentials/token-state';

type TokenAction<T> = (input: unknown) => Promise<ActionResult<T>>;

const OVERLAP_OPTIONS = OVERLAP_PRESET_NAMES.map((preset) => ({ value: preset, label: OVERLAP_LABELS[preset] }));

/** Rotating one token: the new one is shown once; the old one keeps working for the overlap chosen here. */
export function RotateTokenForm({
  integrationId,
  token,
  rotate,
}: {
  integrationId: number;
  token: { id: number; label: string; prefix: string };
  rotate: TokenAction<{ token: string }>;
}) {
  return (
    <ActionForm
      action={rotate}
      hidden={{ integrationId, tokenId: token.id }}
      submitLabel="Rotar"
      pendingLabel="Rotando…"
      submitClassName="secondary"
      confirmation={{
        kind: 'text',
        title: `¿Rotar el token «${token.label}» (${token.prefix}…)?`,
        message: 'Se genera un token nuevo con el mismo nombre. El anterior sigue funcionando durante la superposición elegida y después deja de funcionar.',
        confirmLabel: 'Rotar token',
      }}
      renderSuccess={({ token: secret }) => <SecretReveal title="Nuevo token" secret={secret} testId="rotated-token" />}
    >
      <Field name="superposicion" label="El token anterior sigue funcionando" options={OVERLAP_OPTIONS} defaultValue="24h" data-testid={`overlap-${token.id}`} />
    </ActionForm>
  );
}

/** Revoking: immediate on every instance. */
export function RevokeTokenForm({ integrationId, token, revoke }: { integrationId: number; token: { id: number; label: string; prefix: string }; revoke: TokenAction<undefined> }) {
  return (
    <ActionForm
      action={revoke}
      hidden={{ integrationId, tokenId: token.id }}
      submitLabel="Revocar"
      pendingLabel="Revocando…"
      submitClassName="danger secondary"
      confirmation={{
        kind: 'text',
        title: `¿Revocar el token «${token.label}» (${token.prefix}…)?`,
        message: 'Deja de funcionar de inmediato en todas las instancias. No se puede deshacer.',
        confirmLabel: 'Revocar token',
      }}
    >
      {null}
    </ActionForm>
  );
}

/** A further token (a second system, a staging environment), shown once. */
export function NewTokenForm({ integrationId, create }: { integrationId: number; create: TokenAction<{ token: string }> }) {
  return (
    <ActionForm
      action={create}
      hidden={{ integrationId }}
      submitLabel="Crear token"
      pendingLabel="Creando…"
      resetOnSuccess
      renderSuccess={({ token }) => <SecretReveal title="Nuevo token" secret={token} testId="created-token" />}
    >
      <Field name="etiqueta" label="Nombre" hint="Para reconocerlo, por ejemplo «Producción» o «Servidor nuevo»." maxLength={60} data-testid="token-label" />
      <Field name="vence" label="Vence (opcional)" hint="Deja de funcionar al final de ese día (hora de Guatemala)." type="date" data-testid="token-expiry" />
    </ActionForm>
  );
}
