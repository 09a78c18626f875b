import type { Metadata } from 'next';
import { EmptyState, PageHeader } from '@/components/console/page-header';
import { ActiveBadge } from '@/components/console/status-badge';
import { TOKEN_STATE_LABELS } from '@/lib/credentials/token-state';
import { formatDateTime } from '@/lib/format/guatemala-time';
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
          <div className="table-wrap" role="region" aria-label="Tokens" tabIndex={0}>
            <table className="data stacked" data-testid="portal-tokens">
              <thead>
                <tr>
                  <th>Nombre</th>
                  <th>Prefijo</th>
                  <th>Estado</th>
                  <th>Creado</th>
                  <th>Último uso</th>
                  <th>Deja de funcionar</th>
                </tr>
              </thead>
              <tbody>
                {tokens.map((token) => {
                  const usable = token.state === 'active' || token.state === 'ending';
                  return (
                    <tr key={token.id}>
                      <td data-label="Nombre">{token.label}</td>
                      <td data-label="Prefijo" className="mono" data-testid="portal-token-prefix">
                        {token.tokenPrefix}…
                      </td>
                      <td data-label="Estado">
                        <ActiveBadge active={usable} on={TOKEN_STATE_LABELS[token.state]} off={TOKEN_STATE_LABELS[token.state]} />
                        {token.replacesPrefix && usable && <div className="small muted">Reemplaza a {token.replacesPrefix}…</div>}
                      </td>
                      <td data-label="Creado">{formatDateTime(token.createdAt)}</td>
                      <td data-label="Último uso">{token.lastUsedAt ? formatDateTime(token.lastUsedAt) : 'Nunca'}</td>
                      <td data-label="Deja de funcionar">
                        {token.revokedAt ? `Revocado el ${formatDateTime(token.revokedAt)}` : token.expiresAt ? formatDateTime(token.expiresAt) : 'Sin vencimiento'}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
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
