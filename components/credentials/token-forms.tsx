'use client';

import { ActionForm, Field } from '@/components/console/action-form';
import { SecretReveal } from '@/components/console/secret-reveal';
import type { ActionResult } from '@/lib/flows/auth/action';
import { OVERLAP_PRESET_NAMES } from '@/lib/core/credentials/token-state';
import { OVERLAP_LABELS } from '@/lib/presentation/token-labels';

// The token forms of the console's "Credenciales" section and of the portal's page: the
// same questions before a rotation or a revocation, the same one-time reveal of a new secret.

type TokenAction<T> = (input: unknown) => Promise<ActionResult<T>>;

const OVERLAP_OPTIONS = OVERLAP_PRESET_NAMES.map((preset) => ({ value: preset, label: OVERLAP_LABELS[preset] }));

/** A token to choose; `distinction` tells it from a token of the same name (lib/core/credentials/rotation-pairs.ts). */
type TokenChoice = { id: number; label: string; prefix: string; distinction?: string };

/**
 * What the console sends beside the fields (the integration it is on); the portal sends nothing:
 * its integration is always the session's.
 */
type Scope = { integrationId: number } | undefined;

const tokenOptions = (tokens: TokenChoice[]) => tokens.map((token) => ({ value: String(token.id), label: [token.label, `${token.prefix}…`, token.distinction].filter(Boolean).join(' · ') }));

/**
 * Rotating a token: the new one is shown once; the old one keeps working for the overlap chosen
 * here. One form below the table, not one per row: the row of the rotated token changes when the
 * page refreshes, and the new token must stay on screen until it has been copied.
 */
export function RotateTokenForm({ scope, tokens, rotate }: { scope?: Scope; tokens: TokenChoice[]; rotate: TokenAction<{ token: string }> }) {
  return (
    <ActionForm
      action={rotate}
      hidden={scope}
      submitLabel="Rotar token"
      pendingLabel="Rotando…"
      submitClassName="secondary"
      confirmation={{ kind: 'rotation', tokens }}
      successStays
      renderSuccess={({ token: secret }) => <SecretReveal title="Token nuevo de la rotación" secret={secret} testId="rotated-token" />}
    >
      <Field name="tokenId" label="Token que se reemplaza" options={tokenOptions(tokens)} data-testid="rotate-token-choice" />
      <Field name="superposicion" label="El token anterior sigue funcionando" options={OVERLAP_OPTIONS} defaultValue="24h" data-testid="rotate-overlap" />
    </ActionForm>
  );
}

/** Revoking: immediate on every instance. */
export function RevokeTokenForm({ scope, tokens, revoke }: { scope?: Scope; tokens: TokenChoice[]; revoke: TokenAction<undefined> }) {
  return (
    <ActionForm
      action={revoke}
      hidden={scope}
      submitLabel="Revocar token"
      pendingLabel="Revocando…"
      submitClassName="danger secondary"
      confirmation={{ kind: 'revocation', tokens }}
    >
      <Field name="tokenId" label="Token que se revoca" options={tokenOptions(tokens)} data-testid="revoke-token-choice" />
    </ActionForm>
  );
}

/** A further token (a second system, a staging environment), shown once. */
export function NewTokenForm({ scope, create }: { scope?: Scope; create: TokenAction<{ token: string }> }) {
  return (
    <ActionForm
      action={create}
      hidden={scope}
      submitLabel="Crear token"
      pendingLabel="Creando…"
      resetOnSuccess
      successStays
      renderSuccess={({ token }) => <SecretReveal title="Token creado" secret={token} testId="created-token" />}
    >
      <Field name="etiqueta" label="Nombre" hint="Para reconocerlo, por ejemplo «Producción» o «Servidor nuevo»." maxLength={60} data-testid="token-label" />
      <Field name="vence" label="Vence (opcional)" hint="Deja de funcionar al final de ese día (hora de Guatemala)." type="date" data-testid="token-expiry" />
    </ActionForm>
  );
}
