import type { Metadata } from 'next';
import Link from 'next/link';
import { CopyableId } from '@/components/console/copyable-id';
import { IdentifierList, recordIdentifierList } from '@/components/console/identifier-list';
import { notFound } from 'next/navigation';
import { ActionForm, Field } from '@/components/console/action-form';
import { EmptyState, PageHeader } from '@/components/console/page-header';
import { BalanceHistoryTable, HeldInFlightNotice } from '@/components/console/balance-history';
import { ReconciliationStatus } from '@/components/console/reconciliation-status';
import { Stat } from '@/components/console/stat';
import { ActiveBadge, HttpStatusBadge } from '@/components/console/status-badge';
import { requirePageUser } from '@/lib/auth/session';
import { RefusalsTable, UsageBreakdown, UsageTotals } from '@/components/console/usage';
import { loadDashboard } from '@/lib/console/dashboard';
import { LOOKUP_LABELS } from '@/lib/format/labels';
import { formatDateTime } from '@/lib/format/guatemala-time';
import { heldInFlight, listHistoryPage } from '@/lib/billing/history';
import { latestVerification } from '@/lib/billing/verify';
import { listStatements } from '@/lib/statements/statements';
import { flagsOf } from '@/lib/integrations/flags';
import { findIntegration } from '@/lib/integrations/service';
import { formatQuetzales } from '@/lib/money';
import { env } from '@/lib/env';
import { alertSettingsFrom, enabledChannels } from '@/lib/alerts/settings';
import { listLatestRecords } from '@/lib/records/list';
import { maskedIdentifiers } from '@/lib/personal-data/masking';
import {
  adjustBalanceAction,
  createTokenAction,
  revokeTokenAction,
  rotateTokenAction,
  setAllowedNetworksAction,
  setFlagAction,
  setIntegrationActiveAction,
  setLowBalanceAlertAction,
  setPurposeAction,
  setTariffAction,
  topUpAction,
} from '../actions';
import { FlagSwitches } from './flag-switches';
import { StatementsSection } from './statements-section';
import { DetailsSection } from './details-section';
import { NotificationsSection } from './notifications-section';
import { detailsOf } from '@/lib/integration-details/service';
import { NewTokenForm, RevokeTokenForm, RotateTokenForm } from './token-actions';
import { listTokens, type TokenView } from '@/lib/credentials/tokens';
import { TOKEN_STATE_LABELS } from '@/lib/credentials/token-state';
import { latestRefusedAddresses, type RefusedAddress } from '@/lib/credentials/refused-addresses';

/** The tab names the integration ("Integración banco-x"), so several open tabs can be told apart. */
export async function generateMetadata({ params }: { params: Promise<{ id: string }> }): Promise<Metadata> {
  const { id } = await params;
  const integration = /^\d{1,9}$/.test(id) ? await findIntegration(Number(id)) : undefined;
  return { title: integration ? `Integración ${integration.nombre}` : 'Integración' };
}

const HISTORY_ROWS = 10;

export default async function IntegrationPage({ params }: { params: Promise<{ id: string }> }) {
  const user = await requirePageUser('support');
  const { id } = await params;
  if (!/^\d{1,9}$/.test(id)) notFound();
  const integration = await findIntegration(Number(id));
  if (!integration) notFound();
  const isAdmin = user.role === 'admin';
  const [history, held, statements, recent, reconciliation, usage, tokens, refusedAddresses] = await Promise.all([
    listHistoryPage(integration.id, {}, {}, HISTORY_ROWS),
    heldInFlight(integration.id),
    listStatements(integration.id),
    listLatestRecords({ integracion: integration.id }, 10),
    latestVerification(),
    loadDashboard('30d', new Date(), integration.id),
    listTokens(integration.id),
    latestRefusedAddresses(integration.id),
  ]);
  const hidden = { integrationId: integration.id };

  return (
    <>
      <PageHeader
        title={integration.nombre}
        back={{ href: '/admin/integraciones', label: 'Integraciones' }}
        description={
          <>
            <ActiveBadge active={integration.active} /> · creada el{' '}
            {formatDateTime(integration.createdAt)}
          </>
        }
        actions={
          <Link className="button secondary" href={`/admin/registros?integracion=${integration.id}`}>
            Ver sus consultas
          </Link>
        }
      />
      {!isAdmin && <p className="notice info">Estás en modo de solo lectura (rol soporte): los cambios los hace un administrador.</p>}

      <div className="grid grid-4">
        <Stat label="Saldo" testId="balance">
          {formatQuetzales(integration.balanceCentavos)}
        </Stat>
        <Stat label="Tarifa por consulta de catálogo" testId="tariff">
          {formatQuetzales(integration.tariffCentavos)}
        </Stat>
        <Stat label="Consultas que cubre el saldo">
          {integration.tariffCentavos > 0 ? Math.floor(integration.balanceCentavos / integration.tariffCentavos).toLocaleString('es-GT') : '—'}
        </Stat>
        <Stat label="Estado">{integration.active ? 'Activa' : 'Desactivada'}</Stat>
      </div>

      <div className="grid grid-2">
        <section className="card" aria-labelledby="flags-title">
          <h2 id="flags-title">Consultas habilitadas</h2>
          <FlagSwitches integrationId={integration.id} flags={flagsOf(integration)} readOnly={!isAdmin} setFlag={setFlagAction} />
        </section>

        {isAdmin && (
          <section className="card" aria-labelledby="money-title">
            <h2 id="money-title">Tarifa y saldo</h2>
            <ActionForm
              action={setTariffAction}
              hidden={hidden}
              submitLabel="Guardar tarifa"
              className="stack"
              confirmation={{ kind: 'tariff', nombre: integration.nombre, tariffCentavos: integration.tariffCentavos }}
            >
              <Field name="tarifa" label="Tarifa por consulta (Q)" hint="Se aplica desde la siguiente consulta." inputMode="decimal" defaultValue={formatQuetzales(integration.tariffCentavos).replace('Q ', '')} />
            </ActionForm>
            <hr style={{ border: 0, borderTop: '1px solid var(--border)', margin: '1rem 0' }} />
            <h3>Recargar saldo</h3>
            <ActionForm
              action={topUpAction}
              hidden={hidden}
              submitLabel="Recargar"
              resetOnSuccess
              confirmation={{ kind: 'top_up', nombre: integration.nombre, balanceCentavos: integration.balanceCentavos }}
            >
              <Field name="monto" label="Monto (Q)" hint="Por ejemplo 250.00" inputMode="decimal" data-testid="topup-amount" />
              <Field name="nota" label="Nota (obligatoria)" hint="Por ejemplo: Depósito 12345 del 21/11." maxLength={500} data-testid="topup-note" />
            </ActionForm>
            <hr style={{ border: 0, borderTop: '1px solid var(--border)', margin: '1rem 0' }} />
            <h3>Ajustar saldo</h3>
            <ActionForm
              action={adjustBalanceAction}
              hidden={hidden}
              submitLabel="Registrar ajuste"
              resetOnSuccess
              confirmation={{ kind: 'adjustment', nombre: integration.nombre, balanceCentavos: integration.balanceCentavos }}
            >
              <Field name="monto" label="Monto del ajuste (Q)" hint="Con signo: +10.00 suma, -5.00 resta. El saldo nunca queda por debajo de cero." inputMode="decimal" />
              <Field name="nota" label="Nota (obligatoria)" hint="Explica el motivo: queda en el historial y en la auditoría." maxLength={500} />
            </ActionForm>
          </section>
        )}
      </div>

      <DetailsSection integrationId={integration.id} details={detailsOf(integration)} isAdmin={isAdmin} />
      <NotificationsSection integration={integration} isAdmin={isAdmin} />

      <PurposeSection integrationId={integration.id} purpose={integration.purpose} isAdmin={isAdmin} />

      <LowBalanceAlertSection
        integrationId={integration.id}
        thresholdCentavos={integration.lowBalanceAlertCentavos}
        defaultCentavos={env().ALERT_LOW_BALANCE_DEFAULT_CENTAVOS}
        alertsConfigured={enabledChannels(alertSettingsFrom(env())).length > 0}
        isAdmin={isAdmin}
      />

      <TokensSection integrationId={integration.id} tokens={tokens} isAdmin={isAdmin} />

      <AllowedNetworksSection integrationId={integration.id} allowedNetworks={integration.allowedNetworks} refused={refusedAddresses} isAdmin={isAdmin} />

      {isAdmin && (
        <div className="grid grid-2">
          <section className="card" aria-labelledby="status-title">
            <h2 id="status-title">{integration.active ? 'Desactivar' : 'Reactivar'}</h2>
            <ActionForm
              action={setIntegrationActiveAction}
              hidden={{ ...hidden, active: String(!integration.active) }}
              submitLabel={integration.active ? 'Desactivar integración' : 'Reactivar integración'}
              submitClassName={integration.active ? 'danger secondary' : undefined}
              confirmation={
                integration.active
                  ? {
                      kind: 'text',
                      title: `¿Desactivar «${integration.nombre}»?`,
                      message: 'Todas sus consultas se rechazarán hasta que la reactives. Su saldo y su historial se conservan.',
                      confirmLabel: 'Desactivar integración',
                    }
                  : undefined
              }
            >
              <p className="small muted">
                {integration.active
                  ? 'Una integración desactivada no puede consultar; su saldo y su historial se conservan.'
                  : 'Al reactivarla, su token actual vuelve a funcionar.'}
              </p>
            </ActionForm>
          </section>
        </div>
      )}

      <section className="card" aria-labelledby="ledger-title" style={{ marginTop: '1rem' }}>
        <h2 id="ledger-title">Movimientos de saldo</h2>
        <HeldInFlightNotice held={held} />
        <ReconciliationStatus run={reconciliation} integrationId={integration.id} />
        {history.rows.length === 0 ? (
          <EmptyState title="Sin movimientos todavía.">
            <p>{isAdmin ? 'Recarga saldo para que la integración pueda usar los catálogos.' : 'Aparecerán aquí las recargas, ajustes y consultas cobradas.'}</p>
          </EmptyState>
        ) : (
          <BalanceHistoryTable rows={history.rows} integrationId={integration.id} canReadAudit={isAdmin} />
        )}
        <p className="small">
          <Link href={`/admin/integraciones/${integration.id}/movimientos`}>Ver todo el historial de saldo, con filtros y exportación CSV</Link>
        </p>
      </section>

      <StatementsSection integrationId={integration.id} createdAt={integration.createdAt} statements={statements} canIssue={isAdmin} />

      <section aria-labelledby="usage-title" data-testid="integration-usage">
        <h2 id="usage-title">Uso en los últimos 30 días</h2>
        <UsageTotals dashboard={usage} testIdPrefix="usage" />
        {usage.totals.total === 0 ? (
          <div className="card">
            <EmptyState title="Esta integración todavía no tiene consultas en estos 30 días." />
          </div>
        ) : (
          <UsageBreakdown dashboard={usage} subject={integration.nombre} heading="h3" tableTestId="integration-usage-by-lookup" />
        )}
        <section className="card">
          <h3>Solicitudes rechazadas antes de la fuente, por motivo</h3>
          <p className="small muted">
            No son registros de consultas (el contrato no las registra) ni se cobran: es lo que la integración recibió como 400, 401, 402, 403 o 429.
          </p>
          <RefusalsTable dashboard={usage} testId="integration-refusals" empty="Ninguna solicitud rechazada en los últimos 30 días." />
        </section>
      </section>

      <section className="card" aria-labelledby="recent-title">
        <h2 id="recent-title">Últimas consultas</h2>
        {recent.length === 0 ? (
          <EmptyState title="Esta integración todavía no tiene consultas." />
        ) : (
          <div className="table-wrap" role="region" aria-label="Últimas consultas" tabIndex={0}>
            <table className="data stacked">
              <thead>
                <tr>
                  <th>Fecha</th>
                  <th>Consulta</th>
                  <th>Estado</th>
                  <th>Identificador</th>
                  <th className="num">Cobrado</th>
                </tr>
              </thead>
              <tbody>
                {recent.map((unmasked) => maskedIdentifiers(unmasked)).map((record) => (
                  <tr key={record.id}>
                    <td className="nowrap" data-label="Fecha">
                      <Link href={`/admin/registros/${record.id}`} prefetch={false}>
                        {formatDateTime(record.createdAt)}
                      </Link>
                    </td>
                    <td data-label="Consulta">{LOOKUP_LABELS[record.lookup]}</td>
                    <td data-label="Estado">
                      <HttpStatusBadge status={record.httpStatus} />
                    </td>
                    <td className="mono small identifiers" data-label="Identificador">
                      <IdentifierList identifiers={recordIdentifierList(record)} fold />
                    </td>
                    <td className="num" data-label="Cobrado" data-testid="recent-charged">
                      {formatQuetzales(record.chargedCentavos)}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </>
  );
}

/**
 * What the integrator declared it looks identifiers up for: personal data may be used only for a
 * declared purpose (Decreto 57-2008, art. 30). Printed on its monthly statements too.
 */
function PurposeSection({ integrationId, purpose, isAdmin }: { integrationId: number; purpose: string; isAdmin: boolean }) {
  return (
    <section className="card" aria-labelledby="purpose-title">
      <h2 id="purpose-title">Finalidad declarada del uso de los datos</h2>
      <p data-testid="integration-purpose">{purpose || <span className="muted">Sin declarar: pide al integrador para qué consulta NIT y CUI.</span>}</p>
      {isAdmin && (
        <ActionForm action={setPurposeAction} hidden={{ integrationId }} submitLabel="Guardar finalidad" className="stack">
          <Field
            name="finalidad"
            label="Finalidad declarada"
            hint="Lo que el integrador declaró por escrito, por ejemplo: verificar la identidad y la situación tributaria de clientes al abrir una cuenta. Queda en la auditoría y en sus estados de cuenta."
            maxLength={500}
            defaultValue={purpose}
            data-testid="purpose-input"
          />
        </ActionForm>
      )}
    </section>
  );
}

function LowBalanceAlertSection({
  integrationId,
  thresholdCentavos,
  defaultCentavos,
  alertsConfigured,
  isAdmin,
}: {
  integrationId: number;
  thresholdCentavos: number | null;
  defaultCentavos: number;
  /** A webhook or an SMTP server is set: without either, no alert reaches anyone. */
  alertsConfigured: boolean;
  isAdmin: boolean;
}) {
  const effective = thresholdCentavos ?? defaultCentavos;
  return (
    <section className="card" aria-labelledby="alert-title">
      <h2 id="alert-title">Alerta de saldo bajo</h2>
      {alertsConfigured ? (
        <p data-testid="low-balance-alert">
          {effective === 0
            ? 'Sin alerta de saldo bajo: se avisa a los administradores solo cuando el saldo se agota.'
            : `Se avisa a los administradores cuando el saldo baja de ${formatQuetzales(effective)}`}
          {effective !== 0 && (thresholdCentavos === null ? ' (umbral predeterminado).' : ' (umbral propio de esta integración).')}{' '}
          <Link href="/admin/alertas">Ver alertas enviadas</Link>
        </p>
      ) : (
        // Promising an alert that no channel can deliver would be worse than saying nothing.
        <p className="notice warn" data-testid="low-balance-alert">
          No se envía ninguna alerta: este servicio no tiene un canal de alertas configurado (ALERT_WEBHOOK_URL o ALERT_SMTP_HOST). El umbral
          {effective === 0 ? ' (solo saldo agotado)' : ` de ${formatQuetzales(effective)}`} marca igualmente la integración en el Panel.
        </p>
      )}
      {isAdmin && (
        <ActionForm action={setLowBalanceAlertAction} hidden={{ integrationId }} submitLabel="Guardar umbral" className="stack">
          <Field
            name="umbral"
            label="Umbral de alerta (Q)"
            hint={`Vacío: el predeterminado (${formatQuetzales(defaultCentavos)}). 0: solo avisar cuando el saldo se agote.`}
            inputMode="decimal"
            defaultValue={thresholdCentavos === null ? '' : formatQuetzales(thresholdCentavos).replace('Q ', '')}
          />
        </ActionForm>
      )}
    </section>
  );
}

/**
 * The integration's tokens: what each is called, when it was created and last used (up to a
 * minute behind), and when it stops working; a rotated token shows beside its replacement until
 * its overlap ends. Revoked and expired tokens stay listed for the record.
 */
function TokensSection({ integrationId, tokens, isAdmin }: { integrationId: number; tokens: TokenView[]; isAdmin: boolean }) {
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

/**
 * The IP allow-list and the addresses refused for being outside it, so support can answer "why do
 * we get 401 from our new server?" (those requests are answered like wrong credentials).
 */
function AllowedNetworksSection({
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

function choices(tokens: TokenView[]) {
  return tokens.map((token) => ({ id: token.id, label: token.label, prefix: token.tokenPrefix }));
}
