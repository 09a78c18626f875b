import type { Metadata } from 'next';
import Link from 'next/link';
import { Stat } from '@/components/console/stat';
import { requirePageUser } from '@/lib/surfaces/console/session';
import { integrationPath, type IntegrationSection } from '@/lib/surfaces/console/integration-sections';
import { integrationSummaryView } from '@/lib/surfaces/console/integration-pages';
import type { TokenView } from '@/lib/flows/integration-management/tokens';
import { formatDateTime } from '@/lib/platform/time/guatemala-time';
import { formatQuetzales } from '@/lib/platform/money';
import { setConstanciaRetentionAction, setConstanciasAction, setConstanciasLegalHoldAction, setFlagAction } from '../../actions';
import { ConstanciaSettings } from '../constancia-settings';
import { FlagSwitches } from '../flag-switches';
import { integrationOrNotFound, sectionTitle } from '../integration';

export async function generateMetadata({ params }: { params: Promise<{ id: string }> }): Promise<Metadata> {
  return { title: await sectionTitle((await params).id, 'resumen') };
}

/**
 * The integration at a glance: what needs attention (each warning links to the section that puts
 * it right), its money, the lookups it may make (switched here), and its credentials in short.
 */
export default async function IntegrationSummaryPage({ params }: { params: Promise<{ id: string }> }) {
  const user = await requirePageUser('support');
  const integration = await integrationOrNotFound((await params).id);
  const isAdmin = user.role === 'admin';
  const { tokens, warnings, flags } = await integrationSummaryView(integration);

  return (
    <>
      {warnings.length > 0 && (
        <section className="card" aria-labelledby="warnings-title" data-testid="integration-warnings">
          <h2 id="warnings-title">Requiere atención</h2>
          <ul className="warnings">
            {warnings.map((warning) => (
              <li key={warning.key} className="notice warn">
                {warning.text}{' '}
                {warning.section !== 'resumen' && <Link href={integrationPath(integration.id, warning.section)}>{SECTION_LINKS[warning.section]}</Link>}
              </li>
            ))}
          </ul>
        </section>
      )}

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
      <p className="small">
        <Link href={integrationPath(integration.id, 'saldo')}>Saldo, movimientos y estados de cuenta</Link> ·{' '}
        <Link href={integrationPath(integration.id, 'uso')}>Uso de los últimos 30 días</Link>
      </p>

      <div className="grid grid-2">
        <section className="card" aria-labelledby="flags-title">
          <h2 id="flags-title">Consultas habilitadas</h2>
          <FlagSwitches integrationId={integration.id} flags={flags} readOnly={!isAdmin} setFlag={setFlagAction} />
          <ConstanciaSettings
            integrationId={integration.id}
            enabled={integration.constanciasEnabled}
            retentionYears={integration.constanciaRetentionYears}
            legalHold={integration.constanciasLegalHold}
            readOnly={!isAdmin}
            setConstancias={setConstanciasAction}
            setRetention={setConstanciaRetentionAction}
            setLegalHold={setConstanciasLegalHoldAction}
          />
        </section>
        <CredentialsSummary integrationId={integration.id} tokens={tokens} allowedNetworks={integration.allowedNetworks} />
      </div>
    </>
  );
}

const SECTION_LINKS = {
  resumen: '',
  credenciales: 'Ir a Credenciales',
  saldo: 'Ir a Saldo y estados de cuenta',
  notificaciones: 'Ir a Notificaciones',
  datos: 'Ir a Datos de la integración',
  portal: 'Ir a Portal',
  uso: 'Ir a Uso',
} as const satisfies Record<IntegrationSection, string>;

/** How many tokens work, when one was last used, and where requests may come from. */
function CredentialsSummary({ integrationId, tokens, allowedNetworks }: { integrationId: number; tokens: TokenView[]; allowedNetworks: string[] }) {
  const usable = tokens.filter((token) => token.state === 'active' || token.state === 'ending');
  const lastUsed = tokens.reduce<Date | null>((latest, token) => (token.lastUsedAt && (!latest || token.lastUsedAt > latest) ? token.lastUsedAt : latest), null);
  return (
    <section className="card" aria-labelledby="credentials-summary-title">
      <h2 id="credentials-summary-title">Credenciales</h2>
      <dl className="details">
        <dt>Tokens que funcionan</dt>
        <dd data-testid="summary-tokens">
          {usable.length === 0 ? 'Ninguno' : `${usable.length}: ${usable.map((token) => `${token.label} (${token.tokenPrefix}…)`).join(', ')}`}
        </dd>
        <dt>Último uso</dt>
        <dd data-testid="summary-last-use">{lastUsed ? formatDateTime(lastUsed) : 'Nunca'}</dd>
        <dt>Direcciones IP</dt>
        <dd>{allowedNetworks.length ? `Solo ${allowedNetworks.length === 1 ? '1 entrada permitida' : `${allowedNetworks.length} entradas permitidas`}` : 'Cualquier dirección'}</dd>
      </dl>
      <p className="small">
        <Link href={integrationPath(integrationId, 'credenciales')}>Ver los tokens y las direcciones permitidas</Link>
      </p>
    </section>
  );
}
