'use server';

import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { consoleAction, fromResult } from '@/lib/auth/action';
import { adjustBalance, topUp } from '@/lib/billing/ledger';
import { FLAG_NAMES } from '@/lib/integrations/flags';
import { integrationNameSchema } from '@/lib/integrations/schemas';
import { createIntegration, rotateToken, setActive, setFlags, setLowBalanceAlert, setTariff } from '@/lib/integrations/service';
import { formatQuetzales } from '@/lib/money';
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
} from '@/lib/console/form-schemas';

// Every change to integrations goes through consoleAction with role 'admin': support staff get a
// refusal from the server, whatever their browser sends.

function refreshIntegration(id: number) {
  revalidatePath('/admin/integraciones');
  revalidatePath(`/admin/integraciones/${id}`);
}

const createSchema = z.object({
  nombre: integrationNameSchema,
  tarifa: tariffField,
  saldoInicial: z.preprocess((value) => (value === '' || value === undefined ? '0' : value), quetzalesField),
  nota: z.preprocess((value) => (value === '' ? undefined : value), noteField.optional()),
  ...Object.fromEntries(FLAG_NAMES.map((flag) => [flag, checkboxField])),
});

export const createIntegrationAction = consoleAction({ role: 'admin', schema: createSchema }, async (input, user) => {
  const values = input as z.infer<typeof createSchema> & Record<string, boolean>;
  const result = await createIntegration(user.actor, {
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

export const setTariffAction = consoleAction(
  { role: 'admin', schema: z.object({ integrationId: idField, tarifa: tariffField }) },
  async ({ integrationId, tarifa }, user) => {
    const result = await setTariff(user.actor, integrationId, tarifa);
    if (result.ok) refreshIntegration(integrationId);
    return fromResult(result, (integration) => ({ message: `Tarifa actualizada a ${formatQuetzales(integration.tariffCentavos)} por consulta.`, data: undefined }));
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
    const result = await topUp(user.actor, integrationId, monto, nota);
    if (result.ok) refreshIntegration(integrationId);
    return fromResult(result, ({ balanceCentavos }) => ({
      message: `Recarga de ${formatQuetzales(monto)} registrada. Saldo actual: ${formatQuetzales(balanceCentavos)}.`,
      data: undefined,
    }));
  },
);

export const adjustBalanceAction = consoleAction(
  { role: 'admin', schema: z.object({ integrationId: idField, monto: signedQuetzalesField, nota: noteField }) },
  async ({ integrationId, monto, nota }, user) => {
    const result = await adjustBalance(user.actor, integrationId, monto, nota);
    if (result.ok) refreshIntegration(integrationId);
    return fromResult(result, ({ balanceCentavos }) => ({
      message: `Ajuste de ${formatQuetzales(monto)} registrado. Saldo actual: ${formatQuetzales(balanceCentavos)}.`,
      data: undefined,
    }));
  },
);

export const rotateTokenAction = consoleAction({ role: 'admin', schema: z.object({ integrationId: idField }) }, async ({ integrationId }, user) => {
  const result = await rotateToken(user.actor, integrationId);
  if (result.ok) refreshIntegration(integrationId);
  return fromResult(result, ({ token }) => ({ message: 'Token rotado: el anterior deja de funcionar en unos segundos.', data: { token } }));
});

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
