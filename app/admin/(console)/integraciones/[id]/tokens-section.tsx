import { CopyableId } from '@/components/console/copyable-id';
import { ActiveBadge } from '@/components/console/status-badge';
import { TOKEN_STATE_LABELS } from '@/lib/credentials/token-state';
import type { TokenView } from '@/lib/credentials/tokens';
import { formatDateTime } from '@/lib/format/guatemala-time';
import { createTokenAction, revokeTokenAction, rotateTokenAction } from '../actions';
import { NewTokenForm, RevokeTokenForm, RotateTokenForm } from './token-actions';

/**
 * The integration's tokens: what each is called, when it was created and last used (up to a
 * minute behind), and when it stops working; a rotated token shows beside its replacement until
 * its overlap ends. Revoked and expired tokens stay listed for the record.
 */
export function TokensSection({ integrationId, tokens, isAdmin }: { integrationId: number; tokens: TokenView[]; isAdmin: boolean }) {
  const replacedBy = new Map(tokens.filter((token) => token.replacedById !== null).map((token) => [token.replacedById!, token]));
  return (
    <section className="card" aria-labelledby="tokens-title">
      <h2 id="tokens-title">Tokens</h2>
      <p className="small muted">
        Cada token funciona por sí solo. Al rotar, el anterior puede seguir funcionando un tiempo para que el integrador cambie su sistema sin cortar el servicio.
        El último uso se actualiza cada minuto como máximo.
      </p>
      <div className="table-wrap" role="region" aria-label="Tokens" tabIndex={0}>
        <table className="data stacked" data-testid="tokens">
          <thead>
            <tr>
              <th>Nombre</th>
              <th>Token</th>
              <th>Estado</th>
              <th>Creado</th>
              <th>Último uso</th>
              <th>Deja de funcionar</th>
            </tr>
          </thead>
          <tbody>
            {tokens.map((token) => {
              const usable = token.state === 'active' || token.state === 'ending';
              const replacing = replacedBy.get(token.id);
              return (
                <tr key={token.id} data-testid={`token-${token.id}`}>
                  <td data-label="Nombre">{token.label}</td>
                  <td data-label="Token" className="mono">
                    <CopyableId value={token.tokenPrefix} shown={`${token.tokenPrefix}…`} what="el prefijo del token" />
                  </td>
                  <td data-label="Estado">
                    <ActiveBadge active={usable} on={TOKEN_STATE_LABELS[token.state]} off={TOKEN_STATE_LABELS[token.state]} />
                    {replacing && usable && (
                      <div className="small muted">
                        Reemplaza a {replacing.tokenPrefix}…{replacing.state === 'ending' && replacing.expiresAt ? `, que funciona hasta el ${formatDateTime(replacing.expiresAt)}` : ''}
                      </div>
                    )}
                  </td>
                  <td data-label="Creado">{formatDateTime(token.createdAt)}</td>
                  <td data-label="Último uso">{token.lastUsedAt ? formatDateTime(token.lastUsedAt) : 'Nunca'}</td>
                  <td data-label="Deja de funcionar" data-testid={`token-ends-${token.id}`}>
                    {token.revokedAt ? `Revocado el ${formatDateTime(token.revokedAt)}` : token.expiresAt ? formatDateTime(token.expiresAt) : 'Sin vencimiento'}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      {isAdmin && (
        <div className="grid grid-3">
          <div>
            <h3>Rotar un token</h3>
            <RotateTokenForm integrationId={integrationId} tokens={choices(tokens.filter((token) => token.state === 'active'))} rotate={rotateTokenAction} />
          </div>
          <div>
            <h3>Revocar un token</h3>
            <RevokeTokenForm
              integrationId={integrationId}
              tokens={choices(tokens.filter((token) => token.state === 'active' || token.state === 'ending'))}
              revoke={revokeTokenAction}
            />
          </div>
          <div>
            <h3>Nuevo token</h3>
            <NewTokenForm integrationId={integrationId} create={createTokenAction} />
          </div>
        </div>
      )}
    </section>
  );
}

function choices(tokens: TokenView[]) {
  return tokens.map((token) => ({ id: token.id, label: token.label, prefix: token.tokenPrefix }));
}
