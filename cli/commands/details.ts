// What an integration declares: its purpose of use, and its billing identity and contacts.
import { formatNit, formatPhone, NOT_REGISTERED } from '@/lib/flows/integration-management/details-display';
import type { DetailField } from '@/lib/flows/integration-management/details-schemas';
import { contactsOf, detailsOf, setIntegrationDetails, type IntegrationContact, type IntegrationDetailsInput } from '@/lib/flows/integration-management/details-service';
import { setPurpose, type IntegrationView } from '@/lib/flows/integration-management/service';
import { CliError } from '../errors';
import { terminalSafe as safe } from '../terminal-text';
import { integrationByArg } from './arguments';
import { CLI_ACTOR, unwrap, type Commands } from './command';
import { describeIntegration } from './describe';

/** The integrations:details options and the detail each sets. */
export const DETAIL_OPTIONS: Record<string, DetailField> = {
  'technical-name': 'technicalContactName',
  'technical-email': 'technicalContactEmail',
  'technical-phone': 'technicalContactPhone',
  'billing-name': 'billingContactName',
  'billing-email': 'billingContactEmail',
  'billing-phone': 'billingContactPhone',
};

/** The razón social and NIT are the billing profile's: SAT's name for the NIT, looked up when it is saved. */
const DETAILS_FROM_BILLING_PROFILE =
  'la razón social y el NIT son los de los datos de facturación (el nombre lo da SAT al consultar el NIT): regístrelos en la consola, Integraciones → la integración → Datos → «Receptor de las facturas», o que el integrador lo haga en su portal, «Datos de facturación»';

function billingIdentityOf(integration: IntegrationView): { legalName: string | null; nit: string | null; billingAddress: string | null; invoiceEmail: string | null } {
  return { legalName: integration.legalName, nit: integration.nit, billingAddress: integration.billingAddress, invoiceEmail: integration.invoiceEmail };
}

function describeDetails(integration: IntegrationView): string {
  const contact = (found: IntegrationContact | null) =>
    found ? [found.name ?? 'sin nombre', found.email, found.phone && formatPhone(found.phone)].filter(Boolean).map((part) => safe(part!)).join(' · ') : 'no registrado';
  const contacts = contactsOf(integration);
  return [
    `#${integration.id} ${safe(integration.nombre)}: datos de la integración`,
    `  Razón social: ${integration.legalName ? safe(integration.legalName) : NOT_REGISTERED.legalName}`,
    `  NIT: ${integration.nit ? formatNit(integration.nit) : NOT_REGISTERED.nit}`,
    `  Dirección fiscal: ${integration.billingAddress ? safe(integration.billingAddress) : NOT_REGISTERED.address}`,
    `  Correo para facturas: ${integration.invoiceEmail ? safe(integration.invoiceEmail) : NOT_REGISTERED.invoiceEmail}`,
    `  Contacto técnico: ${contact(contacts.technical)}`,
    `  Contacto de facturación: ${contact(contacts.billing)}`,
  ].join('\n');
}

export const detailCommands: Commands = {
  'integrations:purpose': {
    usage: {
      args: ['<id|nombre> [--set "..."]'],
      description: [
        'muestra o fija su finalidad de uso declarada (queda en la auditoría;',
        'se ve en su página de la consola y en sus estados de cuenta mensuales)',
      ],
    },
    async run(args, options) {
      const integration = await integrationByArg(args);
      if (options.set === undefined) return { data: { purpose: integration.purpose }, text: describeIntegration(integration) };
      if (typeof options.set !== 'string') throw new CliError('--set necesita la finalidad, entre comillas');
      const updated = unwrap(await setPurpose(CLI_ACTOR, integration.id, options.set));
      return { data: updated, text: describeIntegration(updated) };
    },
  },
  'integrations:details': {
    usage: {
      args: [
        '<id|nombre>',
        '[--technical-name "..."] [--technical-email correo] [--technical-phone teléfono]',
        '[--billing-name "..."] [--billing-email correo] [--billing-phone teléfono]',
      ],
      description: [
        'muestra la razón social, el NIT y la dirección (los de sus datos de',
        'facturación) y muestra o cambia los contactos técnico y de facturación',
        '(solo los dados; "" quita uno); queda en la auditoría',
      ],
    },
    async run(args, options) {
      const integration = await integrationByArg(args);
      if (options['legal-name'] !== undefined || options.nit !== undefined) {
        throw new CliError(DETAILS_FROM_BILLING_PROFILE);
      }
      const given: IntegrationDetailsInput = {};
      for (const [option, field] of Object.entries(DETAIL_OPTIONS)) {
        const value = options[option];
        if (value === undefined) continue;
        if (typeof value !== 'string') throw new CliError(`--${option} necesita un valor (o "" para quitarlo)`);
        given[field] = value;
      }
      if (Object.keys(given).length === 0) return { data: { ...billingIdentityOf(integration), ...detailsOf(integration) }, text: describeDetails(integration) };
      const result = await setIntegrationDetails(CLI_ACTOR, integration.id, given);
      if (!result.ok) throw new CliError(safe(result.error.message), result.error.code === 'not_found' ? 3 : 2);
      const { integration: updated, changed } = result.value;
      return {
        data: { ...billingIdentityOf(updated), ...detailsOf(updated), changed },
        text: `${describeDetails(updated)}
${changed ? 'Datos guardados.' : 'Sin cambios: los datos ya eran esos.'}`,
      };
    },
  },
};
