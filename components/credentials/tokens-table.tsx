import { CopyableId } from '@/components/console/copyable-id';
import { ActiveBadge } from '@/components/console/status-badge';
import { rotationSides } from '@/lib/core/credentials/rotation-pairs';
import { rotationNote, TOKEN_STATE_LABELS } from '@/lib/presentation/token-labels';
import type { ListedToken } from '@/lib/flows/integration-management/tokens';
import { formatDateTime } from '@/lib/platform/time/guatemala-time';

/** A token as the table shows it, with the token that replaced it (a rotation). */
export interface TokenRow extends ListedToken {
  replacedById: number | null;
}

interface TokensTableProps {
  tokens: TokenRow[];
  /** The console offers the prefix to copy ("Token"); the portal shows it as text ("Prefijo"). */
  prefix: { heading: 'Token' | 'Prefijo'; copyable: boolean };
  /** How each side's end-to-end tests find the table, a prefix, and (the console's) each token's row. */
  testIds: { table: string; prefix?: string; perToken?: boolean };
}

/**
 * An integration's tokens, the console's "Credenciales" section and the portal's page: what each
 * is called, when it was created and last used, its state, and when it stops working. While a
 * rotation's two tokens both work, each says which one it is (new or old), the other's prefix and
 * creation, and when the old one stops. Revoked and expired tokens stay listed for the record.
 */
export function TokensTable({ tokens, prefix, testIds }: TokensTableProps) {
  const sides = rotationSides(tokens);
  // Each rotation's new token → the token it replaced.
  const predecessors = new Map(tokens.filter((token) => token.replacedById !== null).map((token) => [token.replacedById!, token]));
  return (
    <div className="table-wrap" role="region" aria-label="Tokens" tabIndex={0}>
      <table className="data stacked" data-testid={testIds.table}>
        <thead>
          <tr>
            <th>Nombre</th>
            <th>{prefix.heading}</th>
            <th>Estado</th>
            <th>Creado</th>
            <th>Último uso</th>
            <th>Deja de funcionar</th>
          </tr>
        </thead>
        <tbody>
          {tokens.map((token) => {
            const usable = token.state === 'active' || token.state === 'ending';
            const side = sides.get(token.id);
            const predecessor = predecessors.get(token.id);
            return (
              <tr key={token.id} data-testid={testIds.perToken ? `token-${token.id}` : undefined}>
                <td data-label="Nombre">{token.label}</td>
                <td data-label={prefix.heading} className="mono" data-testid={testIds.prefix}>
                  {prefix.copyable ? <CopyableId value={token.tokenPrefix} shown={`${token.tokenPrefix}…`} what="el prefijo del token" /> : <>{token.tokenPrefix}…</>}
                </td>
                <td data-label="Estado">
                  <ActiveBadge active={usable} on={TOKEN_STATE_LABELS[token.state]} off={TOKEN_STATE_LABELS[token.state]} />
                  {side ? (
                    <div className="small muted" data-testid="token-rotation-note">
                      {rotationNote(side)}
                    </div>
                  ) : (
                    predecessor &&
                    usable && <div className="small muted">Reemplaza a {predecessor.tokenPrefix}…</div>
                  )}
                </td>
                <td data-label="Creado">{formatDateTime(token.createdAt)}</td>
                <td data-label="Último uso">{token.lastUsedAt ? formatDateTime(token.lastUsedAt) : 'Nunca'}</td>
                <td data-label="Deja de funcionar" data-testid={testIds.perToken ? `token-ends-${token.id}` : undefined}>
                  {token.revokedAt ? `Revocado el ${formatDateTime(token.revokedAt)}` : token.expiresAt ? formatDateTime(token.expiresAt) : 'Sin vencimiento'}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
