'use server';

import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { fromResult } from '@/lib/surfaces/portal/action';
import { allowListSavedMessage, tokenCreatedMessage, tokenRevokedMessage, tokenRotatedMessage } from '@/lib/presentation/credential-answers';
import { allowListTextField, overlapField, tokenExpiryDateField, tokenLabelField } from '@/lib/presentation/token-fields';
import { idField } from '@/lib/presentation/form-fields';
import { portalAction } from '@/lib/surfaces/portal/action';
import { createPortalToken, revokePortalToken, rotatePortalToken, setPortalAllowList } from '@/lib/surfaces/portal/credentials';
import { CREDENTIAL_MANAGERS } from '@/lib/surfaces/portal/page-access';
import { requestAllowListAddress } from '@/lib/surfaces/portal/session';

// "Credenciales": owners and developers create, rotate and revoke their integration's tokens and
// edit its IP allow-list. Billing users are refused here, on the server, whatever their browser sends.
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

export const setPortalAllowListAction = portalAction(
  {
    roles: CREDENTIAL_MANAGERS,
    schema: z.object({
      direcciones: allowListTextField,
      // Sent by the form's question when the list leaves out the address in use (and only then).
      fueraDeLista: z.preprocess((value) => (value === '' ? undefined : value), z.literal('si').optional()),
    }),
  },
  async ({ direcciones, fueraDeLista }, user) => {
    const result = await setPortalAllowList(user, direcciones, { clientAddress: await requestAllowListAddress(), leaveOutConfirmed: fueraDeLista === 'si' });
    if (result.ok) refresh();
    if (!result.ok && result.error.code === 'invalid') return { ok: false, message: 'Revise las direcciones.', fieldErrors: { direcciones: result.error.message } };
    if (!result.ok && result.error.code === 'leaves_out_client') return { ok: false, message: result.error.message, fieldErrors: { direcciones: result.error.message } };
    return fromResult(result, (integration) => ({ message: allowListSavedMessage(integration.allowedNetworks), data: undefined }));
  },
);
