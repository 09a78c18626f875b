// The integrations' changes: creating one, its flags, tariff, alert, money, tokens, networks, state
// and purpose (app/admin/(console)/integraciones/actions.ts is their entry point).
import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { ACTION_MESSAGES, fromResult } from '@/lib/surfaces/console/action';
import { consoleAction } from '@/lib/surfaces/console/action';
import { adjustBalance, topUp } from '@/lib/core/billing/ledger';
import { wordedBalance } from '@/lib/presentation/balance-refusals';
import { FLAG_NAMES } from '@/lib/core/integrations/flags';
import { integrationNameSchema } from '@/lib/flows/integration-management/setting-schemas';
import { createIntegration, rotateToken, setActive, setAllowedNetworks, setConstanciaRetention, setConstancias, setConstanciaTariff, setConstanciasLegalHold, setFlags, setLowBalanceAlert, setPurpose, setTariff } from '@/lib/flows/integration-management/service';
import { formatQuetzales } from '@/lib/platform/money';
import { detailsFormFields } from '@/lib/flows/integration-management/details-form';
import { parseIntegrationDetails } from '@/lib/flows/integration-management/details-service';
import { createToken, revokeToken } from '@/lib/flows/integration-management/tokens';
import { allowListSavedMessage, tokenCreatedMessage, tokenRevokedMessage, tokenRotatedMessage } from '@/lib/presentation/credential-answers';
import { integrationPaths } from '@/lib/surfaces/console/integration-sections';
import {
  booleanField,
  checkboxField,
  idField,
  lowBalanceAlertField,
  noteField,
  positiveQuetzalesField,
  quetzalesField,
  signedQuetzalesField,
  tariffField,
} from '@/lib/presentation/form-fields';
import { INVOICE_MESSAGES } from '@/lib/presentation/invoice-messages';
import { allowListTextField, overlapField, tokenExpiryDateField, tokenLabelField } from '@/lib/presentation/token-fields';

// Every change to integrations goes through consoleAction with role 'admin': support staff get a
// refusal from the server, whatever their browser sends.

// Every section of the integration, not only the one acted in: its header (name, state) and its
// summary show on all of them, and the user stays on the section they acted in.
function refreshIntegration(id: number) {
  revalidatePath('/admin/integraciones');
  for (const path of integrationPaths(id)) revalidatePath(path);
}

const createSchema = z.object({
  nombre: integrationNameSchema,
  tarifa: tariffField,
  saldoInicial: z.preprocess((value) => (value === '' || value === undefined ? '0' : value), quetzalesField),
  nota: z.preprocess((value) => (value === '' ? undefined : value), noteField.optional()),
  ...Object.fromEntries(FLAG_NAMES.map((flag) => [flag, checkboxField])),
  // Legal name, NIT and contacts: optional at creation, validated by lib/flows/integration-management/details-schemas.ts.
  ...detailsFormFields,
}).superRefine((values, context) => {
  // Reported with the other fields' errors, so one sending shows every mistake.
  const details = parseIntegrationDetails(values);
  if (details.ok) return;
  for (const [field, message] of Object.entries(details.error.fieldErrors)) context.addIssue({ code: 'custom', path: [field], message });
}, { when: (payload) => typeof payload.value === 'object' && payload.value !== null });

export const createIntegrationAction = consoleAction({ role: 'admin', schema: createSchema }, async (input, user) => {
  const values = input as z.infer<typeof createSchema> & Record<string, boolean>;
  const details = parseIntegrationDetails(values);
  if (!details.ok) return { ok: false, message: ACTION_MESSAGES.invalid, fieldErrors: details.error.fieldErrors };
  const result = await createIntegration(user.actor, {
    details: details.value,
    nombre: values.nombre,
    tariffCentavos: values.tarifa,
    initialBalanceCentavos: values.saldoInicial,
    note: values.nota,
    flags: Object.fromEntries(FLAG_NAMES.map((flag) => [flag, values[flag] === true])),
  });
  if (result.ok) refreshIntegration(result.value.integration.id);
  return fromResult(result, ({ integration, token }) => ({
    message: `Integración «${integration.nombre}» creada.`,
    data: { id: integration.id, nombre: integration.nombre, token },
  }));
});

export const setFlagAction = consoleAction(
  { role: 'admin', schema: z.object({ integrationId: idField, flag: z.enum(FLAG_NAMES as [string, ...string[]]), enabled: booleanField }) },
  async ({ integrationId, flag, enabled }, user) => {
    const result = await setFlags(user.actor, integrationId, { [flag]: enabled });
    if (result.ok) refreshIntegration(integrationId);
    return fromResult(result, () => ({ data: { enabled } }));
  },
);

/** Whether the integration's lookups may ask for a constancia (x-constancia: true); saved at once and audited. */
export const setConstanciasAction = consoleAction(
  { role: 'admin', schema: z.object({ integrationId: idField, enabled: booleanField }) },
  async ({ integrationId, enabled }, user) => {
    const result = await setConstancias(user.actor, integrationId, enabled);
    if (result.ok) refreshIntegration(integrationId);
    return fromResult(result, () => ({ data: { enabled } }));
  },
);

/** How many years the proofs of its receipts are kept (5 to 15). */
export const setConstanciaRetentionAction = consoleAction(
  { role: 'admin', schema: z.object({ integrationId: idField, years: z.coerce.number().int().min(5).max(15) }) },
  async ({ integrationId, years }, user) => {
    const result = await setConstanciaRetention(user.actor, integrationId, years);
    if (result.ok) refreshIntegration(integrationId);
    return fromResult(result, () => ({ data: { enabled: true } }));
  },
);

/** A legal hold on its receipts: nothing of them is purged while it is on. */
export const setConstanciasLegalHoldAction = consoleAction(
  { role: 'admin', schema: z.object({ integrationId: idField, enabled: booleanField }) },
  async ({ integrationId, enabled }, user) => {
    const result = await setConstanciasLegalHold(user.actor, integrationId, enabled);
    if (result.ok) refreshIntegration(integrationId);
    return fromResult(result, () => ({ data: { enabled } }));
  },
);

export const setTariffAction = consoleAction(
  { role: 'admin', schema: z.object({ integrationId: idField, tarifa: tariffField }) },
  async ({ integrationId, tarifa }, user) => {
    const result = await setTariff(user.actor, integrationId, tarifa);
    if (result.ok) refreshIntegration(integrationId);
    return fromResult(result, (integration) => ({ message: `Tarifa actualizada a ${formatQuetzales(integration.tariffCentavos)} por consulta.`, data: undefined }));
  },
);

/** What each receipt costs (charged with its lookup, as its own movement). */
export const setConstanciaTariffAction = consoleAction(
  { role: 'admin', schema: z.object({ integrationId: idField, tarifa: tariffField }) },
  async ({ integrationId, tarifa }, user) => {
    const result = await setConstanciaTariff(user.actor, integrationId, tarifa);
    if (result.ok) refreshIntegration(integrationId);
    return fromResult(result, (integration) => ({ message: `Tarifa por constancia actualizada a ${formatQuetzales(integration.constanciaTariffCentavos)}.`, data: undefined }));
  },
);

export const setLowBalanceAlertAction = consoleAction(
  { role: 'admin', schema: z.object({ integrationId: idField, umbral: lowBalanceAlertField }) },
  async ({ integrationId, umbral }, user) => {
    const result = await setLowBalanceAlert(user.actor, integrationId, umbral);
    if (result.ok) refreshIntegration(integrationId);
    return fromResult(result, () => ({
      message:
        umbral === null
          ? 'Umbral de saldo bajo: se usa el predeterminado.'
          : umbral === 0
            ? 'Sin alerta de saldo bajo: solo se avisará cuando el saldo se agote.'
            : `Se avisará cuando el saldo baje de ${formatQuetzales(umbral)}.`,
      data: undefined,
    }));
  },
);

export const topUpAction = consoleAction(
  { role: 'admin', schema: z.object({ integrationId: idField, monto: positiveQuetzalesField, nota: noteField }) },
  async ({ integrationId, monto, nota }, user) => {
    const result = wordedBalance(await topUp(user.actor, integrationId, monto, nota));
    if (result.ok) refreshIntegration(integrationId);
    return fromResult(result, ({ balanceCentavos, invoiceAwaitsReceptor }) => ({
      message: `Recarga de ${formatQuetzales(monto)} registrada. Saldo actual: ${formatQuetzales(balanceCentavos)}.${invoiceAwaitsReceptor ? ` ${INVOICE_MESSAGES.awaitingReceptor}` : ''}`,
      data: undefined,
    }));
  },
);

export const adjustBalanceAction = consoleAction(
  { role: 'admin', schema: z.object({ integrationId: idField, monto: signedQuetzalesField, nota: noteField }) },
  async ({ integrationId, monto, nota }, user) => {
    const result = wordedBalance(await adjustBalance(user.actor, integrationId, monto, nota));
    if (result.ok) refreshIntegration(integrationId);
    return fromResult(result, ({ balanceCentavos }) => ({
      message: `Ajuste de ${formatQuetzales(monto)} registrado. Saldo actual: ${formatQuetzales(balanceCentavos)}.`,
      data: undefined,
    }));
  },
);

export const rotateTokenAction = consoleAction(
  {
    role: 'admin',
    schema: z.object({
      integrationId: idField,
      tokenId: z.preprocess((value) => (value === '' ? undefined : value), idField.optional()),
      superposicion: overlapField,
    }),
  },
  async ({ integrationId, tokenId, superposicion }, user) => {
    const result = await rotateToken(user.actor, integrationId, { tokenId, overlap: superposicion });
    if (result.ok) refreshIntegration(integrationId);
    return fromResult(result, ({ token, replaced }) => ({ message: tokenRotatedMessage(superposicion, replaced), data: { token } }));
  },
);

export const createTokenAction = consoleAction(
  {
    role: 'admin',
    schema: z.object({
      integrationId: idField,
      etiqueta: tokenLabelField,
      vence: tokenExpiryDateField,
    }),
  },
  async ({ integrationId, etiqueta, vence }, user) => {
    const result = await createToken(user.actor, integrationId, { label: etiqueta, expiresAt: vence ?? null });
    if (result.ok) refreshIntegration(integrationId);
    return fromResult(result, ({ token, view }) => ({ message: tokenCreatedMessage(view), data: { token } }));
  },
);

export const revokeTokenAction = consoleAction(
  { role: 'admin', schema: z.object({ integrationId: idField, tokenId: idField }) },
  async ({ integrationId, tokenId }, user) => {
    const result = await revokeToken(user.actor, integrationId, tokenId);
    if (result.ok) refreshIntegration(integrationId);
    return fromResult(result, (token) => ({ message: tokenRevokedMessage(token), data: undefined }));
  },
);

export const setAllowedNetworksAction = consoleAction(
  { role: 'admin', schema: z.object({ integrationId: idField, direcciones: allowListTextField }) },
  async ({ integrationId, direcciones }, user) => {
    const result = await setAllowedNetworks(user.actor, integrationId, direcciones);
    if (result.ok) refreshIntegration(integrationId);
    if (!result.ok && result.error.code === 'invalid') return { ok: false, message: 'Revise las direcciones.', fieldErrors: { direcciones: result.error.message } };
    return fromResult(result, (integration) => ({ message: allowListSavedMessage(integration.allowedNetworks), data: undefined }));
  },
);

export const setIntegrationActiveAction = consoleAction(
  { role: 'admin', schema: z.object({ integrationId: idField, active: booleanField }) },
  async ({ integrationId, active }, user) => {
    const result = await setActive(user.actor, integrationId, active);
    if (result.ok) refreshIntegration(integrationId);
    return fromResult(result, (integration) => ({
      message: integration.active
        ? 'Integración reactivada: sus credenciales vuelven a funcionar.'
        : 'Integración desactivada: sus consultas se rechazan como credenciales inválidas.',
      data: undefined,
    }));
  },
);

export const setPurposeAction = consoleAction(
  { role: 'admin', schema: z.object({ integrationId: idField, finalidad: z.string({ error: 'Escriba la finalidad declarada.' }) }) },
  async ({ integrationId, finalidad }, user) => {
    const result = await setPurpose(user.actor, integrationId, finalidad);
    if (result.ok) refreshIntegration(integrationId);
    if (!result.ok && result.error.code === 'invalid') return { ok: false, message: result.error.message, fieldErrors: { finalidad: result.error.message } };
    return fromResult(result, () => ({ message: 'Finalidad declarada guardada.', data: undefined }));
  },
);
