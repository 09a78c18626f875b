import type { Metadata } from 'next';
import { EmptyState, PageHeader } from '@/components/console/page-header';
import { AllowListForm } from '@/components/credentials/allow-list-form';
import { NewTokenForm, RevokeTokenForm, RotateTokenForm } from '@/components/credentials/token-forms';
import { TokensTable } from '@/components/credentials/tokens-table';
import { portalCredentials, portalTokenChoices } from '@/lib/surfaces/portal/credentials';
import { CREDENTIAL_MANAGERS, CREDENTIAL_READERS } from '@/lib/surfaces/portal/page-access';
import { requestAllowListAddress, requirePortalPage } from '@/lib/surfaces/portal/session';
import { createPortalTokenAction, revokePortalTokenAction, rotatePortalTokenAction, setPortalAllowListAction } from './actions';

export const metadata: Metadata = { title: 'Credenciales' };

// Credenciales: how the session's integration proves who it is to the API, and (for owners and
// developers) where they create, rotate and revoke its tokens and edit its IP allow-list themselves. A token's secret is shown
// once, when it is issued; here only its label and prefix identify it.
export default async function PortalCredentialsPage() {
  const user = await requirePortalPage(CREDENTIAL_READERS);
  const { tokens, allowedNetworks } = await portalCredentials(user);
  const manages = CREDENTIAL_MANAGERS.includes(user.role);
  return (
    <>
      <PageHeader
        title="Credenciales"
        description="Los tokens con que su sistema llama a la API y las direcciones desde las que puede llamarla. Las consultas habilitadas, la tarifa y la desactivación de la integración las cambia el equipo del servicio: escríbale si necesita cambiarlas."
      />
      <section className="card" aria-labelledby="tokens-title">
        <h2 id="tokens-title">Tokens</h2>
        <p className="small muted">
          El token completo solo se muestra una vez, al crearlo; aquí se reconoce por su prefijo. Al rotar, el anterior puede seguir funcionando un tiempo para que
          cambie su sistema sin cortar el servicio. El último uso se actualiza cada minuto como máximo.
        </p>
        {tokens.length === 0 ? (
          <EmptyState title="Su integración no tiene tokens." />
        ) : (
          <TokensTable
            tokens={tokens}
            prefix={{ heading: 'Prefijo', copyable: false }}
            testIds={{ table: 'portal-tokens', prefix: 'portal-token-prefix' }}
          />
        )}
        {manages && (
          <div className="grid grid-3">
            <div>
              <h3>Nuevo token</h3>
              <NewTokenForm create={createPortalTokenAction} />
            </div>
            <div>
              <h3>Rotar un token</h3>
              <RotateTokenForm tokens={portalTokenChoices(tokens, (token) => token.state === 'active')} rotate={rotatePortalTokenAction} />
            </div>
            <div>
              <h3>Revocar un token</h3>
              <RevokeTokenForm tokens={portalTokenChoices(tokens, (token) => token.state === 'active' || token.state === 'ending')} revoke={revokePortalTokenAction} />
            </div>
          </div>
        )}
      </section>
      <section className="card" aria-labelledby="networks-title">
        <h2 id="networks-title">Direcciones permitidas</h2>
        {allowedNetworks.length === 0 ? (
          <p data-testid="portal-allowed-networks">La API acepta las llamadas de su integración desde cualquier dirección IP.</p>
        ) : (
          <>
            <p>La API solo acepta las llamadas de su integración desde estas direcciones o redes; desde cualquier otra responde como a credenciales no válidas (403 en RENAP y RTU, 401 en los catálogos) y la llamada no se registra como consulta.</p>
            <ul className="mono" data-testid="portal-allowed-networks">
              {allowedNetworks.map((network) => (
                <li key={network}>{network}</li>
              ))}
            </ul>
          </>
        )}
        {manages && <AllowListForm allowedNetworks={allowedNetworks} clientAddress={await requestAllowListAddress()} save={setPortalAllowListAction} />}
      </section>
    </>
  );
}
