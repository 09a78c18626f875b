// How an integration tops up its balance, said the same way wherever it is said (Inicio, Recargas,
// the balance notices, /docs): paying online and automatic top-up when the service has them on,
// the deposit reported in Recargas always. No server-only imports here.

/** Whether online payments (card or transfer through the provider) are offered by this deployment. */
export interface TopUpWays {
  paysOnline: boolean;
}

/** The sentence for someone who may top up (owners and billing). */
export function topUpGuidance(ways: TopUpWays): string {
  return ways.paysOnline
    ? 'Para recargarlo, pague en línea con tarjeta o transferencia en Recargas (se acredita en cuanto el proveedor confirma el pago), o deposite en una cuenta del servicio y repórtelo allí; un propietario puede activar la recarga automática con una tarjeta ya usada.'
    : 'Para recargarlo, deposite en una cuenta del servicio y repórtelo en Recargas.';
}

/** The same for a notice, which names the portal's page. */
export function topUpGuidanceForNotice(ways: TopUpWays, recargas: string): string {
  return ways.paysOnline
    ? `Recárguelo en el portal (${recargas}): en línea con tarjeta o transferencia, que se acredita al confirmarse el pago, o reportando un depósito; también puede activar allí la recarga automática.`
    : `Recárguelo depositando en una cuenta del servicio y reportándolo en el portal (${recargas}).`;
}
