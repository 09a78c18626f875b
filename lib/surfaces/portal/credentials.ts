import { addressAllowed, compileAllowList, parseAllowList } from '@/lib/core/credentials/allow-list';
import type { OverlapPreset } from '@/lib/core/credentials/token-state';
import { rotationSides } from '@/lib/core/credentials/rotation-pairs';
import { tokenDistinction } from '@/lib/presentation/token-labels';
import { createToken, listTokens, revokeToken, rotateToken, type CreateTokenInput, type ListedToken, type TokenError, type TokenView } from '@/lib/flows/integration-management/tokens';
import { findIntegration, setAllowedNetworks, type IntegrationError, type IntegrationView } from '@/lib/flows/integration-management/service';
import { allowListProblemsText } from '@/lib/flows/integration-management/allow-list-messages';
import { fail, type Result } from '@/lib/platform/result';
import type { PortalUserSession } from './session';

// "Credenciales": the session's integration's tokens and IP allow-list, read and changed through the
// services the console uses. A token is shown by its label and prefix: never its secret
// (which nobody can read again after it is issued) nor its hash.

export interface PortalToken extends ListedToken {
  /** The token that replaced this one (a rotation), one of the same integration's. */
  replacedById: number | null;
}

export interface PortalCredentials {
  tokens: PortalToken[];
  /** Addresses and networks the API accepts this integration's requests from; empty: any. */
  allowedNetworks: string[];
}

/** The tokens a form offers, each told apart from its rotation's other token (new or old, created, working until). */
export function portalTokenChoices(tokens: PortalToken[], offered: (token: PortalToken) => boolean): Array<{ id: number; label: string; prefix: string; distinction: string }> {
  const sides = rotationSides(tokens);
  return tokens.filter(offered).map((token) => ({ id: token.id, label: token.label, prefix: token.tokenPrefix, distinction: tokenDistinction(token, sides) }));
}

export async function portalCredentials(user: PortalUserSession): Promise<PortalCredentials> {
  const [tokens, integration] = await Promise.all([listTokens(user.integrationId), findIntegration(user.integrationId)]);
  if (!integration) throw new Error(`the session's integration ${user.integrationId} does not exist`);
  return {
    // Picked field by field, so a column added to the tokens' view later is not shown here unseen.
    tokens: tokens.map((token) => ({
      id: token.id,
      label: token.label,
      tokenPrefix: token.tokenPrefix,
      state: token.state,
      createdAt: token.createdAt,
      lastUsedAt: token.lastUsedAt,
      expiresAt: token.expiresAt,
      revokedAt: token.revokedAt,
      replacedById: token.replacedById,
    })),
    allowedNetworks: integration.allowedNetworks,
  };
}

// Changes: the functions the console's actions call, with the portal user as
// the audit actor and the session's integration, never one a client names. A token id of another
// integration finds nothing in that integration, so it is answered word for word as an id that
// does not exist. The caches, the change notification and the audit then behave as for the console.

export const PORTAL_CREDENTIAL_MESSAGES = {
  unknownToken: 'Su integración no tiene ese token.',
  notRotatable: 'Ese token no está activo en su integración: no se puede rotar.',
} as const;

export async function createPortalToken(user: PortalUserSession, input: CreateTokenInput): Promise<Result<{ token: string; view: TokenView }, TokenError>> {
  return createToken(user.actor, user.integrationId, input);
}

export async function rotatePortalToken(
  user: PortalUserSession,
  tokenId: number,
  overlap: OverlapPreset,
): Promise<Result<{ token: string; view: TokenView; replaced: TokenView }, TokenError>> {
  const rotated = await rotateToken(user.actor, user.integrationId, { tokenId, overlap });
  if (!rotated.ok && rotated.error.code === 'not_usable') return fail('not_usable', PORTAL_CREDENTIAL_MESSAGES.notRotatable);
  return rotated;
}

export async function revokePortalToken(user: PortalUserSession, tokenId: number): Promise<Result<TokenView, TokenError>> {
  const revoked = await revokeToken(user.actor, user.integrationId, tokenId);
  // The console's words name the integration's number; the portal's say the same of "yours".
  if (!revoked.ok && revoked.error.code === 'not_found') return fail('not_found', PORTAL_CREDENTIAL_MESSAGES.unknownToken);
  return revoked;
}

/** The allow-list would refuse the address the person is using now (a confirmation saves it anyway). */
export function leavesOutMessage(clientAddress: string | null): string {
  return clientAddress
    ? `La lista deja fuera la dirección desde la que está conectado ahora (${clientAddress}): si su sistema llama a la API desde esta red, sus consultas se rechazarán como credenciales no válidas. Inclúyala, o confirme que quiere guardarla así.`
    : 'No se pudo leer la dirección desde la que está conectado, así que ninguna lista la incluye: si su sistema llama a la API desde esta red, sus consultas se rechazarán. Confirme que quiere guardarla así.';
}

/**
 * Replaces the session's integration's IP allow-list through the console's setAllowedNetworks (its
 * validation, its audit, the change notification). A list that would refuse the address this
 * person is using now is saved only with `leaveOutConfirmed`: an owner or developer locking out
 * the network they work from should have said so.
 */
export async function setPortalAllowList(
  user: PortalUserSession,
  text: string,
  options: { clientAddress: string | null; leaveOutConfirmed: boolean },
): Promise<Result<IntegrationView, IntegrationError | 'leaves_out_client'>> {
  const parsed = parseAllowList(text);
  if (!parsed.ok) return fail('invalid', allowListProblemsText(parsed.problems));
  if (!options.leaveOutConfirmed && !addressAllowed(compileAllowList(parsed.entries), options.clientAddress)) {
    return fail('leaves_out_client', leavesOutMessage(options.clientAddress));
  }
  return setAllowedNetworks(user.actor, user.integrationId, parsed.entries);
}
