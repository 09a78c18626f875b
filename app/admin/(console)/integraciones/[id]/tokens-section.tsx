import { TokensTable } from '@/components/credentials/tokens-table';
import { tokenChoices } from '@/lib/surfaces/console/integration-pages';
import type { TokenView } from '@/lib/flows/integration-management/tokens';
import { createTokenAction, revokeTokenAction, rotateTokenAction } from '../actions';
import { NewTokenForm, RevokeTokenForm, RotateTokenForm } from '@/components/credentials/token-forms';

/**
 * The integration's tokens: what each is called, when it was created and last used (up to a
 * minute behind), and when it stops working; while a rotation overlaps, which token is new and
 * which is old. Revoked and expired tokens stay listed for the record.
 */
export function TokensSection({ integrationId, tokens, isAdmin }: { integrationId: number; tokens: TokenView[]; isAdmin: boolean }) {
  return (
    <section className="card" aria-labelledby="tokens-title">
      <h2 id="tokens-title">Tokens</h2>
      <p className="small muted">
        Cada token funciona por sí solo. Al rotar, el anterior puede seguir funcionando un tiempo para que el integrador cambie su sistema sin cortar el servicio.
        El último uso se actualiza cada minuto como máximo.
      </p>
      <TokensTable tokens={tokens} prefix={{ heading: 'Token', copyable: true }} testIds={{ table: 'tokens', perToken: true }} />
      {isAdmin && (
        <div className="grid grid-3">
          <div>
            <h3>Rotar un token</h3>
            <RotateTokenForm scope={{ integrationId }} tokens={tokenChoices(tokens, (token) => token.state === 'active')} rotate={rotateTokenAction} />
          </div>
          <div>
            <h3>Revocar un token</h3>
            <RevokeTokenForm
              scope={{ integrationId }}
              tokens={tokenChoices(tokens, (token) => token.state === 'active' || token.state === 'ending')}
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
