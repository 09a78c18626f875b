import { ActionForm } from '@/components/console/action-form';
import { formatNit, formatPhone, NOT_REGISTERED } from '@/lib/surfaces/console/integration-details';
import type { IntegrationDetails } from '@/lib/flows/integration-management/details-service';
import { DetailsFields } from '../details-fields';
import { setIntegrationDetailsAction } from './details-actions';

/**
 * Who the integrator is (legal name and NIT, printed on its statements as they are when each is
 * issued) and whom support writes to: its technical and billing contacts. Administrators edit
 * them; support reads them to answer integrators.
 */
export function DetailsSection({
  integrationId,
  details,
  billing,
  isAdmin,
}: {
  integrationId: number;
  details: IntegrationDetails;
  /** The billing profile's razón social, NIT and address (set in «Receptor de las facturas»). */
  billing: { legalName: string | null; nit: string | null; billingAddress: string | null };
  isAdmin: boolean;
}) {
  return (
    <section className="card" aria-labelledby="details-title">
      <h2 id="details-title">Datos de la integración</h2>
      <dl className="details" data-testid="integration-details">
        <dt>Razón social</dt>
        <dd data-testid="details-legal-name">{billing.legalName ?? <NotRegistered text={NOT_REGISTERED.legalName} />}</dd>
        <dt>NIT</dt>
        <dd data-testid="details-nit">{billing.nit ? formatNit(billing.nit) : <NotRegistered text={NOT_REGISTERED.nit} />}</dd>
        <dt>Dirección fiscal</dt>
        <dd data-testid="details-address">{billing.billingAddress ?? <NotRegistered text={NOT_REGISTERED.address} />}</dd>
        <Contact title="Contacto técnico" testId="details-technical" name={details.technicalContactName} email={details.technicalContactEmail} phone={details.technicalContactPhone} />
        <Contact title="Contacto de facturación" testId="details-billing" name={details.billingContactName} email={details.billingContactEmail} phone={details.billingContactPhone} />
      </dl>
      <p className="small muted">
        Razón social, NIT y dirección: los de <a href="#receptor">Receptor de las facturas</a>; se imprimen en cada estado de cuenta tal como estén al emitirlo.
      </p>
      {isAdmin && (
        <ActionForm action={setIntegrationDetailsAction} hidden={{ integrationId }} submitLabel="Guardar datos" className="stack">
          <DetailsFields details={details} />
          <p className="small muted">Todos los campos son opcionales; deje uno vacío para quitarlo. Los cambios quedan en la auditoría.</p>
        </ActionForm>
      )}
    </section>
  );
}

function NotRegistered({ text }: { text: string }) {
  return <span className="muted">{text[0]!.toUpperCase() + text.slice(1)}</span>;
}

function Contact({ title, testId, name, email, phone }: { title: string; testId: string; name: string | null; email: string | null; phone: string | null }) {
  return (
    <>
      <dt>{title}</dt>
      <dd data-testid={testId}>
        {name === null && email === null && phone === null ? (
          <NotRegistered text="no registrado" />
        ) : (
          <>
            {name ?? <span className="muted">Sin nombre</span>}
            {email && (
              <>
                {' · '}
                <a href={`mailto:${email}`}>{email}</a>
              </>
            )}
            {phone && (
              <>
                {' · '}
                <a href={`tel:${phone}`} className="nowrap">
                  {formatPhone(phone)}
                </a>
              </>
            )}
          </>
        )}
      </dd>
    </>
  );
}
