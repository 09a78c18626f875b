import type { Actor } from '@/lib/core/audit/audit';

// What the credential kinds (a token expiring, revoked, created or rotated; the allow-list changed)
// say alike: a token by its label and prefix, who made the change, and the same example token.

export interface TokenFacts {
  id: number;
  label: string;
  tokenPrefix: string;
  expiresAt: Date | null;
  revokedAt: Date | null;
}

export function tokenName(token: TokenFacts): string {
  return `«${token.label}» (${token.tokenPrefix}…)`;
}

/** The token as `datos.token` names it. */
export function tokenDatum(token: TokenFacts): string {
  return `${token.label} (${token.tokenPrefix}…)`;
}

/**
 * Who made a credential change, as the integrator is told: a person of its own team by the e-mail
 * it signed in to the portal with; the service's staff, CLI or system only as "la administración
 * del servicio" (an integrator never learns a staff member's address, as Movimientos shows them).
 */
export type ChangedBy = { kind: 'portal'; email: string } | { kind: 'service' };

export function changedByOf(actor: Actor): ChangedBy {
  return actor.kind === 'integrator' ? { kind: 'portal', email: actor.email } : { kind: 'service' };
}

export function changedByWords(by: ChangedBy): string {
  return by.kind === 'portal' ? `${by.email}, en el portal` : 'la administración del servicio';
}

export const NOT_YOURS = 'Si nadie de su equipo lo pidió, revise sus credenciales en el portal y avise al servicio.';

/** The documentation's token, and the person of the integration who changes it in its examples. */
export const SAMPLE_TOKEN: TokenFacts = { id: 41, label: 'Producción', tokenPrefix: 'tlk_3f9a', expiresAt: null, revokedAt: null };
export const SAMPLE_PORTAL_PERSON: ChangedBy = { kind: 'portal', email: 'ana@coop-ejemplo.example' };
