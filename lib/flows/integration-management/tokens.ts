import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import { db } from '@/db/client';
import { integrationTokens, integrations, type IntegrationToken } from '@/db/schema';
import { writeAudit, type Actor, type Executor } from '@/lib/core/audit/audit';
import { notifyIntegrationChanged } from '@/lib/core/integrations/directory';
import { fail, ok, type Result } from '@/lib/platform/result';
import { issueToken } from '@/lib/platform/security/tokens';
import { announceCredentialChange } from '@/lib/core/credentials/changes';
import { tokenCreated, tokenRevoked, tokenRotated } from '@/lib/core/credentials/events';
import { OVERLAP_PRESETS, tokenState, type OverlapPreset, type TokenState } from '@/lib/core/credentials/token-state';

/** What the console and CLI may show about a token: never its hash. */
export interface TokenView {
  id: number;
  integrationId: number;
  label: string;
  tokenPrefix: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  expiresAt: Date | null;
  revokedAt: Date | null;
  replacedById: number | null;
  state: TokenState;
}

/** What a list of tokens may show of one (the console's and the portal's): never its secret nor its hash. */
export type ListedToken = Pick<TokenView, 'id' | 'label' | 'tokenPrefix' | 'state' | 'createdAt' | 'lastUsedAt' | 'expiresAt' | 'revokedAt'>;

export type TokenError = 'invalid' | 'not_found' | 'not_usable';

export const DEFAULT_TOKEN_LABEL = 'Principal';
const MAX_LABEL_LENGTH = 60;

export function toTokenView(token: IntegrationToken, now = new Date()): TokenView {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  const { tokenHash, ...view } = token;
  return { ...view, state: tokenState(token, now) };
}

function auditSnapshot(token: IntegrationToken) {
  return {
    tokenId: token.id,
    label: token.label,
    tokenPrefix: token.tokenPrefix,
    expiresAt: token.expiresAt?.toISOString() ?? null,
    revokedAt: token.revokedAt?.toISOString() ?? null,
  };
}

function parseLabel(label: string | undefined): Result<string, TokenError> {
  const trimmed = (label ?? '').trim();
  if (trimmed.length === 0) return fail('invalid', 'El token necesita un nombre (por ejemplo «Producción»).');
  if (trimmed.length > MAX_LABEL_LENGTH) return fail('invalid', `El nombre del token admite hasta ${MAX_LABEL_LENGTH} caracteres.`);
  if (/[\u0000-\u001f\u007f]/.test(trimmed)) return fail('invalid', 'El nombre del token no puede contener caracteres de control.');
  return ok(trimmed);
}

/** Every token of an integration, newest first, with its state now. */
export async function listTokens(integrationId: number): Promise<TokenView[]> {
  const rows = await (await db())
    .select()
    .from(integrationTokens)
    .where(eq(integrationTokens.integrationId, integrationId))
    .orderBy(desc(integrationTokens.id));
  const now = new Date();
  return rows.map((row) => toTokenView(row, now));
}

/**
 * Issues a token for an integration inside the caller's transaction (a new integration's first
 * token). The token is returned once; only its hash is stored.
 */
export async function issueIntegrationToken(
  tx: Executor,
  integrationId: number,
  label: string,
  expiresAt: Date | null = null,
): Promise<{ row: IntegrationToken; token: string }> {
  const issued = issueToken();
  const [row] = await tx
    .insert(integrationTokens)
    .values({ integrationId, label, tokenHash: issued.tokenHash, tokenPrefix: issued.tokenPrefix, expiresAt })
    .returning();
  await announceCredentialChange(tx);
  return { row: row!, token: issued.token };
}

export interface CreateTokenInput {
  label: string;
  /** Optional: the token stops working at this instant. */
  expiresAt?: Date | null;
}

/** A further token beside the integration's others (a second deployment, a staging system). */
export async function createToken(
  actor: Actor,
  integrationId: number,
  input: CreateTokenInput,
): Promise<Result<{ token: string; view: TokenView }, TokenError>> {
  const label = parseLabel(input.label);
  if (!label.ok) return label;
  if (input.expiresAt && input.expiresAt.getTime() <= Date.now()) return fail('invalid', 'El vencimiento debe ser una fecha futura.');
  const database = await db();
  const created = await database.transaction(async (tx) => {
    const [integration] = await tx.select({ id: integrations.id, nombre: integrations.nombre }).from(integrations).where(eq(integrations.id, integrationId)).for('update');
    if (!integration) return undefined;
    const issued = await issueIntegrationToken(tx, integrationId, label.value, input.expiresAt ?? null);
    await writeAudit(tx, actor, { action: 'token.create', targetType: 'integration', targetId: integrationId, before: null, after: auditSnapshot(issued.row) });
    return { ...issued, integration };
  });
  if (!created) return fail('not_found', `No existe la integración #${integrationId}.`);
  await notifyIntegrationChanged();
  // The integration's technical contact is told (queued here, delivered by the server's outbox).
  await tokenCreated.emit({ integration: created.integration, token: created.row, actor });
  return ok({ token: created.token, view: toTokenView(created.row) });
}

/**
 * Rotation: a new token with the same label replaces `tokenId` (by default the integration's
 * newest usable token). The old one keeps working for the overlap window chosen now (never past
 * an expiry it already had); with no overlap it is revoked at once. Both are audited together.
 */
export async function rotateToken(
  actor: Actor,
  integrationId: number,
  options: { tokenId?: number; overlap?: OverlapPreset } = {},
): Promise<Result<{ token: string; view: TokenView; replaced: TokenView }, TokenError>> {
  const overlapMs = OVERLAP_PRESETS[options.overlap ?? 'none'];
  if (overlapMs === undefined) return fail('invalid', 'Ventana de superposición desconocida.');
  const database = await db();
  const outcome = await database.transaction(async (tx) => {
    const candidates = await tx
      .select()
      .from(integrationTokens)
      .where(
        and(
          eq(integrationTokens.integrationId, integrationId),
          isNull(integrationTokens.revokedAt),
          isNull(integrationTokens.replacedById),
          options.tokenId === undefined ? undefined : eq(integrationTokens.id, options.tokenId),
        ),
      )
      .orderBy(desc(integrationTokens.id))
      .for('update');
    const now = new Date();
    const old = candidates.find((token) => tokenState(token, now) === 'active');
    if (!old) return undefined;
    const issued = await issueIntegrationToken(tx, integrationId, old.label);
    const overlapEnds = new Date(now.getTime() + overlapMs);
    const endsAt = old.expiresAt && old.expiresAt < overlapEnds ? old.expiresAt : overlapEnds;
    const [replaced] = await tx
      .update(integrationTokens)
      .set(overlapMs === 0 ? { revokedAt: sql`now()`, replacedById: issued.row.id } : { expiresAt: endsAt, replacedById: issued.row.id })
      .where(eq(integrationTokens.id, old.id))
      .returning();
    await writeAudit(tx, actor, {
      action: 'integration.rotate_token',
      targetType: 'integration',
      targetId: integrationId,
      before: auditSnapshot(old),
      after: { ...auditSnapshot(issued.row), replaced: auditSnapshot(replaced!), overlap: options.overlap ?? 'none' },
    });
    return { issued, replaced: replaced! };
  });
  if (!outcome) {
    return fail('not_usable', options.tokenId === undefined ? 'La integración no tiene un token activo que rotar.' : 'Ese token ya no está activo: no se puede rotar.');
  }
  await notifyIntegrationChanged();
  const [integration] = await database.select({ id: integrations.id, nombre: integrations.nombre }).from(integrations).where(eq(integrations.id, integrationId));
  if (integration) await tokenRotated.emit({ integration, replaced: outcome.replaced, token: outcome.issued.row, actor });
  return ok({ token: outcome.issued.token, view: toTokenView(outcome.issued.row), replaced: toTokenView(outcome.replaced) });
}

/** Revokes a token now: every instance refuses it as soon as the change is announced. */
export async function revokeToken(actor: Actor, integrationId: number, tokenId: number): Promise<Result<TokenView, TokenError>> {
  const database = await db();
  const revoked = await database.transaction(async (tx) => {
    const [current] = await tx
      .select()
      .from(integrationTokens)
      .where(and(eq(integrationTokens.id, tokenId), eq(integrationTokens.integrationId, integrationId)))
      .for('update');
    if (!current || current.revokedAt) return current ? 'already' : undefined;
    const [row] = await tx.update(integrationTokens).set({ revokedAt: sql`now()` }).where(eq(integrationTokens.id, tokenId)).returning();
    await announceCredentialChange(tx);
    await writeAudit(tx, actor, { action: 'token.revoke', targetType: 'integration', targetId: integrationId, before: auditSnapshot(current), after: auditSnapshot(row!) });
    return row!;
  });
  if (revoked === undefined) return fail('not_found', `La integración #${integrationId} no tiene un token #${tokenId}.`);
  if (revoked === 'already') return fail('not_usable', 'Ese token ya estaba revocado.');
  await notifyIntegrationChanged();
  // The integration's technical contact is told (queued here, delivered by the server's outbox).
  const [integration] = await database.select({ id: integrations.id, nombre: integrations.nombre }).from(integrations).where(eq(integrations.id, integrationId));
  if (integration && revoked.revokedAt) await tokenRevoked.emit({ integration, token: { ...revoked, revokedAt: revoked.revokedAt } });
  return ok(toTokenView(revoked));
}
