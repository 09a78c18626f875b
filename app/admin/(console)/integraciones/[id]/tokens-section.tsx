import { TokensTable, type TokenRow } from '@/components/credentials/tokens-table';
import type { TokenView } from '@/lib/credentials/tokens';
import { createTokenAction, revokeTokenAction, rotateTokenAction } from '../actions';
import { NewTokenForm, RevokeTokenForm, RotateTokenForm } from '@/components/credentials/token-forms';

/**
 * The integration's tokens: what each is called, when it was created and last used (up to a
 * minute behind), and when it stops working; a rotated token shows beside its replacement until
 * its overlap ends. Revoked and expired tokens stay listed for the record.
 */
export function TokensSection({ integrationId, tokens, isAdmin }: { integrationId: number; tokens: TokenView[]; isAdmin: boolean }) {
  return (
    <section className="card" aria-labelledby="tokens-title">
      <h2 id="tokens-title">Tokens</h2>
      <p className="small muted">
        Cada token funciona por sí solo. Al rotar, el anterior puede seguir funcionando un tiempo para que el integrador cambie su sistema sin cortar el servicio.
        El último uso se actualiza cada minuto como máximo.
      </p>
      <TokensTable tokens={tokenRows(tokens)} prefix={{ heading: 'Token', copyable: true }} testIds={{ table: 'tokens', perToken: true }} />
      {isAdmin && (
        <div className="grid grid-3">
          <div>
            <h3>Rotar un token</h3>
            <RotateTokenForm scope={{ integrationId }} tokens={choices(tokens.filter((token) => token.state === 'active'))} rotate={rotateTokenAction} />
          </div>
          <div>
            <h3>Revocar un token</h3>
            <RevokeTokenForm
              scope={{ integrationId }}
              tokens={choices(tokens.filter((token) => token.state === 'active' || token.state === 'ending'))}
              revoke={revokeTokenAction}
            />
          </div>
          <div>
            <h3>Nuevo token</h3>
            <NewTokenForm scope={{ integrationId }} create={createTokenAction} />
          </div>
        </div>
      )}
    </section>
  );
}

function choices(tokens: TokenView[]) {
  return tokens.map((token) => ({ id: token.id, label: token.label, prefix: token.tokenPrefix }));
}

/** The rows of the tokens table: a rotated token named beside its replacement, with the end of its overlap. */
function tokenRows(tokens: TokenView[]): TokenRow[] {
  const replacedBy = new Map(tokens.filter((token) => token.replacedById !== null).map((token) => [token.replacedById!, token]));
  return tokens.map((token) => {
    const replaced = replacedBy.get(token.id);
    return {
      ...token,
      replaces: replaced ? { tokenPrefix: replaced.tokenPrefix, workingUntil: replaced.state === 'ending' ? replaced.expiresAt : null } : null,
    };
  });
}
