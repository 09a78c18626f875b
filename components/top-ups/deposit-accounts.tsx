import type { ReactNode } from 'react';
import type { TopUpBankAccount } from '@/lib/flows/top-ups/settings';
import { BANK_ACCOUNT_CURRENCY_LABELS, BANK_ACCOUNT_TYPE_LABELS, bankName } from '@/lib/platform/guatemala/banks';

/**
 * Where to deposit (TOP_UP_BANK_ACCOUNTS), as Recargas and /docs show it, and what to write on the
 * slip so the administrators know whose deposit it is. `login`: the session's integration, or null
 * where nobody is signed in (/docs names the header instead). No accounts configured: whom to ask.
 */
export function DepositAccounts({ accounts, login, supportEmail }: { accounts: readonly TopUpBankAccount[]; login: string | null; supportEmail: string | null }) {
  const ask: ReactNode = supportEmail ? <a href={`mailto:${supportEmail}`}>{supportEmail}</a> : 'el equipo del servicio';
  if (accounts.length === 0) {
    return (
      <p data-testid="deposit-accounts-none">
        Las cuentas bancarias del servicio no están publicadas aquí: pida a {ask} los datos de la cuenta a la que debe depositar o transferir antes de hacerlo.
      </p>
    );
  }
  return (
    <>
      <div className="table-wrap" role="region" aria-label="Cuentas para depositar" tabIndex={0}>
        <table className="data stacked" data-testid="deposit-accounts">
          <thead>
            <tr>
              <th>Banco</th>
              <th>Tipo de cuenta</th>
              <th>Número de cuenta</th>
              <th>A nombre de</th>
              <th>Moneda</th>
            </tr>
          </thead>
          <tbody>
            {accounts.map((account) => (
              <tr key={`${account.bank} ${account.number}`} data-testid="deposit-account">
                <td data-label="Banco">{bankName(account.bank)}</td>
                <td data-label="Tipo de cuenta">{BANK_ACCOUNT_TYPE_LABELS[account.type]}</td>
                <td className="nowrap" data-label="Número de cuenta">
                  {account.number}
                </td>
                <td data-label="A nombre de">{account.holder}</td>
                <td data-label="Moneda">{BANK_ACCOUNT_CURRENCY_LABELS[account.currency]}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p data-testid="deposit-slip-note">
        {login ? (
          <>
            En la boleta o en la descripción de la transferencia, escriba el login de su integración, <code>{login}</code>: así la administración sabe de quién es el
            depósito.
          </>
        ) : (
          <>
            En la boleta o en la descripción de la transferencia, escriba el login de su integración (el de la cabecera <code>x-integracion-login</code>): así la
            administración sabe de quién es el depósito.
          </>
        )}
      </p>
    </>
  );
}
