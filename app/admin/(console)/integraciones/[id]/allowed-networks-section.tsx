import { ActionForm, Field } from '@/components/console/action-form';
import { EmptyState } from '@/components/console/page-header';
import type { RefusedAddress } from '@/lib/core/credentials/refused-addresses';
import { formatDateTime } from '@/lib/platform/time/guatemala-time';
import { setAllowedNetworksAction } from '../actions';

/**
 * The IP allow-list and the addresses refused for being outside it, so support can answer "why do
 * we get 401 from our new server?" (those requests are answered like wrong credentials).
 */
export function AllowedNetworksSection({
  integrationId,
  allowedNetworks,
  refused,
  isAdmin,
}: {
  integrationId: number;
  allowedNetworks: string[];
  refused: RefusedAddress[];
  isAdmin: boolean;
}) {
  return (
    <section className="card" aria-labelledby="allowed-ips-title">
      <h2 id="allowed-ips-title">Direcciones IP permitidas</h2>
      <p data-testid="allowed-networks">
        {allowedNetworks.length ? (
          <span className="mono">{allowedNetworks.join(', ')}</span>
        ) : (
          'Cualquier dirección: la integración no tiene lista de direcciones permitidas.'
        )}
      </p>
      {isAdmin && (
        <ActionForm action={setAllowedNetworksAction} hidden={{ integrationId }} submitLabel="Guardar direcciones">
          <Field
            name="direcciones"
            label="Direcciones y rangos permitidos"
            hint="IPv4 o IPv6, direcciones o rangos CIDR separados por comas (por ejemplo 203.0.113.7, 198.51.100.0/24, 2001:db8::/32). Vacío: cualquier dirección."
            defaultValue={allowedNetworks.join(', ')}
            data-testid="allowed-networks-input"
          />
        </ActionForm>
      )}
      <h3>Últimas direcciones rechazadas</h3>
      <p className="small muted">Solicitudes con credenciales correctas desde una dirección fuera de la lista: reciben la misma respuesta que unas credenciales no válidas y no se registran como consultas.</p>
      {refused.length === 0 ? (
        <EmptyState title="Ninguna dirección rechazada." />
      ) : (
        <div className="table-wrap" role="region" aria-label="Últimas direcciones rechazadas" tabIndex={0}>
          <table className="data stacked" data-testid="refused-addresses">
            <thead>
              <tr>
                <th>Dirección</th>
                <th>Último rechazo</th>
                <th className="num">Solicitudes</th>
              </tr>
            </thead>
            <tbody>
              {refused.map((entry) => (
                <tr key={entry.address}>
                  <td data-label="Dirección" className="mono">
                    {entry.address}
                  </td>
                  <td data-label="Último rechazo">{formatDateTime(entry.lastRefusedAt)}</td>
                  <td className="num" data-label="Solicitudes">
                    {entry.refusals.toLocaleString('es-GT')}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
