'use client';

import { ActionForm } from '@/components/console/action-form';
import { SecretReveal } from '@/components/console/secret-reveal';
import type { ActionResult } from '@/lib/auth/action';

export function TokenRotation({
  integrationId,
  nombre,
  rotate,
}: {
  integrationId: number;
  nombre: string;
  rotate: (input: unknown) => Promise<ActionResult<{ token: string }>>;
}) {
  return (
    <ActionForm
      action={rotate}
      hidden={{ integrationId }}
      submitLabel="Rotar token"
      pendingLabel="Rotando…"
      submitClassName="danger secondary"
      confirmation={{
        kind: 'text',
        title: `¿Rotar el token de «${nombre}»?`,
        message: 'El token actual dejará de funcionar en unos segundos y el integrador tendrá que usar el nuevo.',
        confirmLabel: 'Rotar token',
      }}
      renderSuccess={({ token }) => <SecretReveal title="Nuevo token" secret={token} testId="rotated-token" />}
    >
      <p className="small muted">Genera un token nuevo y anula el actual. Úsalo si el token se filtró o el integrador lo perdió.</p>
    </ActionForm>
  );
}
