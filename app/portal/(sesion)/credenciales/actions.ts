'use server';

import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { fromResult } from '@/lib/auth/action';
import { tokenCreatedMessage, tokenRevokedMessage, tokenRotatedMessage } from '@/lib/credentials/answers';
import { overlapField, tokenExpiryDateField, tokenLabelField } from '@/lib/credentials/form-fields';
import { idField } from '@/lib/console/form-schemas';
import { portalAction } from '@/lib/portal/action';
import { createPortalToken, revokePortalToken, rotatePortalToken } from '@/lib/portal/credentials';
import { CREDENTIAL_MANAGERS } from '@/lib/portal/roles';

// "Credenciales": owners and developers create, rotate and revoke their integration's tokens
// (issue 34, point 1). Billing users are refused here, on the server, whatever their browser sends.
// The integration is always the session's; a token id of another integration is answered as one
// that does not exist.

const refresh = () => revalidatePath('/portal/credenciales');

/** A token id as the table holds them (integer): a larger one names nothing, and is answered so. */
const tokenIdField = idField.max(2_147_483_647, 'Identificador inválido.');

export const createPortalTokenAction = portalAction(
  { roles: CREDENTIAL_MANAGERS, schema: z.object({ etiqueta: tokenLabelField, vence: tokenExpiryDateField }) },
  async ({ etiqueta, vence }, user) => {
    const result = await createPortalToken(user, { label: etiqueta, expiresAt: vence ?? null });
    if (result.ok) refresh();
    return fromResult(result, ({ token, view }) => ({ message: tokenCreatedMessage(view), data: { token } }));
  },
);

export const rotatePortalTokenAction = portalAction(
  { roles: CREDENTIAL_MANAGERS, schema: z.object({ tokenId: tokenIdField, superposicion: overlapField }) },
  async ({ tokenId, superposicion }, user) => {
    const result = await rotatePortalToken(user, tokenId, superposicion);
    if (result.ok) refresh();
    return fromResult(result, ({ token, replaced }) => ({ message: tokenRotatedMessage(superposicion, replaced), data: { token } }));
  },
);

export const revokePortalTokenAction = portalAction({ roles: CREDENTIAL_MANAGERS, schema: z.object({ tokenId: tokenIdField }) }, async ({ tokenId }, user) => {
  const result = await revokePortalToken(user, tokenId);
  if (result.ok) refresh();
  return fromResult(result, (token) => ({ message: tokenRevokedMessage(token), data: undefined }));
});
