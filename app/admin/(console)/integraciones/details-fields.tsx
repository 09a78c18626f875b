import { Field } from '@/components/console/action-form';
import { CONTACT_NAME_MAX, EMAIL_MAX, formatPhone } from '@/lib/surfaces/console/integration-details';
import type { IntegrationDetails } from '@/lib/flows/integration-management/details-service';

// A hint under one input of a row must not stretch its neighbours' inputs.
const TOP_ALIGNED = { alignItems: 'start' } as const;

/**
 * The inputs of an integration's contacts, inside an ActionForm: on its page (filled with what is
 * registered) and when creating it (empty). Every one is optional. Its razón social and NIT are its
 * billing profile's, set with SAT's name in «Receptor de las facturas».
 */
export function DetailsFields({ details }: { details?: IntegrationDetails }) {
  return (
    <>
      <ContactFields legend="Contacto técnico" prefix="technicalContact" hint="A quien se escribe por credenciales, errores y fuentes." details={details} />
      <ContactFields legend="Contacto de facturación" prefix="billingContact" hint="A quien se escribe por saldo y estados de cuenta." details={details} />
    </>
  );
}

function ContactFields({ legend, prefix, hint, details }: { legend: string; prefix: 'technicalContact' | 'billingContact'; hint: string; details?: IntegrationDetails }) {
  const phone = details?.[`${prefix}Phone`];
  return (
    <fieldset className="field" style={{ border: 0, padding: 0, margin: 0 }}>
      <legend className="label">{legend}</legend>
      <span className="hint">{hint}</span>
      <div className="grid grid-3" style={TOP_ALIGNED}>
        <Field name={`${prefix}Name`} label="Nombre" maxLength={CONTACT_NAME_MAX} autoComplete="off" defaultValue={details?.[`${prefix}Name`] ?? ''} />
        <Field name={`${prefix}Email`} label="Correo" type="email" inputMode="email" maxLength={EMAIL_MAX} autoComplete="off" defaultValue={details?.[`${prefix}Email`] ?? ''} />
        <Field name={`${prefix}Phone`} label="Teléfono" type="tel" inputMode="tel" hint="8 dígitos, con o sin +502." maxLength={20} autoComplete="off" defaultValue={phone ? formatPhone(phone) : ''} />
      </div>
    </fieldset>
  );
}
