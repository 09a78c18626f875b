import type { Metadata } from 'next';
import { EmptyState, PageHeader } from '@/components/console/page-header';
import { TokensTable } from '@/components/credentials/tokens-table';
import { portalCredentials } from '@/lib/portal/credentials';
import { CREDENTIAL_READERS } from '@/lib/portal/roles';
import { requirePortalPage } from '@/lib/portal/session';

export const metadata: Metadata = { title: 'Credenciales' };

// Credenciales, read only: how the session's integration proves who it is to the API. A token's
// secret was shown once, when it was issued; here only its label and prefix identify it.
export default async function PortalCredentialsPage() {
  const user = await requirePortalPage(CREDENTIAL_READERS);
  const { tokens, allowedNetworks } = await portalCredentials(user);
  return (
    <>
      <PageHeader
        title="Credenciales"
        description="Los tokens con que tu sistema llama a la API y las direcciones desde las que puede llamarla. Para crear, rotar o revocar un token, o cambiar las direcciones, escribe al equipo del servicio."
      />
      <section className="card" aria-labelledby="tokens-title">
        <h2 id="tokens-title">Tokens</h2>
        <p className="small muted">
          El token completo solo se muestra una vez, al crearlo; aquí lo reconoces por su prefijo. Al rotar, el anterior sigue funcionando un tiempo para que cambies tu
          sistema sin cortar el servicio. El último uso se actualiza cada minuto como máximo.
        </p>
        {tokens.length === 0 ? (
          <EmptyState title="Tu integración no tiene tokens." />
        ) : (
          <TokensTable
            tokens={tokens.map((token) => ({ ...token, replaces: token.replacesPrefix ? { tokenPrefix: token.replacesPrefix, workingUntil: null } : null }))}
            prefix={{ heading: 'Prefijo', copyable: false }}
            testIds={{ table: 'portal-tokens', prefix: 'portal-token-prefix' }}
          />
        )}
      </section>
      <section className="card" aria-labelledby="networks-title">
        <h2 id="networks-title">Direcciones permitidas</h2>
        {allowedNetworks.length === 0 ? (
          <p data-testid="portal-allowed-networks">La API acepta las llamadas de tu integración desde cualquier dirección IP.</p>
        ) : (
          <>
            <p>La API solo acepta las llamadas de tu integración desde estas direcciones o redes; desde cualquier otra responde como a credenciales no válidas (403 en RENAP y RTU, 401 en los catálogos) y la llamada no se registra como consulta.</p>
            <ul className="mono" data-testid="portal-allowed-networks">
              {allowedNetworks.map((network) => (
                <li key={network}>{network}</li>
              ))}
            </ul>
          </>
        )}
      </section>
    </>
  );
}
