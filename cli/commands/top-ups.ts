// Deposits integrators report in the portal: listed, compared for duplicates, approved or rejected.
import { bankName } from '@/lib/platform/guatemala/banks';
import { formatQuetzales } from '@/lib/platform/money';
import { formatDateTime } from '@/lib/platform/time/guatemala-time';
import { TOP_UP_STATE_LABELS } from '@/lib/flows/top-ups/labels';
import {
  approveTopUpRequest,
  integrationTopUpPage,
  pendingTopUpPage,
  referenceDuplicates,
  rejectTopUpRequest,
  type TopUpRequestPage,
  type TopUpRequestView,
} from '@/lib/flows/top-ups/requests';
import { CliError } from '../errors';
import { terminalSafe as safe } from '../terminal-text';
import { integrationByArg, required } from './arguments';
import { CLI_ACTOR, unwrap, type Commands } from './command';
import { counted } from './describe';

/** A top-up request's id, the first argument. */
function topUpRequestId(args: string[]): number {
  const typed = required(args, 0, 'el número de la solicitud de recarga (top-ups:list las muestra)');
  if (!/^[1-9]\d{0,9}$/.test(typed) || Number(typed) > 2_147_483_647) throw new CliError(`el número de la solicitud es un entero positivo (se recibió «${safe(typed)}»)`);
  return Number(typed);
}

function describeTopUpRequest(request: TopUpRequestView): string {
  const decided = request.state === 'rejected' ? ` (motivo: ${safe(request.reason ?? '')})` : '';
  return (
    `#${request.id} ${safe(request.integrationName)} · ${formatQuetzales(request.amountCentavos)} · ${bankName(request.bank)} referencia ${safe(request.reference)} ` +
    `del ${request.depositDate.split('-').reverse().join('/')} · ${TOP_UP_STATE_LABELS[request.state]}${decided} · reportada ${formatDateTime(request.createdAt)} por ${safe(request.reporterEmail)}` +
    (request.slip ? ' · con boleta' : '')
  );
}

export const topUpCommands: Commands = {
  'top-ups:list': {
    usage: {
      args: ['[--integration id|nombre]'],
      description: [
        'depósitos reportados en el portal pendientes de revisión (con',
        '--integration, todos los de esa integración y su estado)',
      ],
    },
    async run(_args, options) {
      const integrationId = options.integration === undefined ? undefined : (await integrationByArg([String(options.integration)])).id;
      // Every page: an operator's list is whole (pending ones oldest first, an integration's newest first).
      const requests: TopUpRequestView[] = [];
      for (let after: string | undefined, page: TopUpRequestPage; ; after = page.next) {
        page = integrationId === undefined ? await pendingTopUpPage(after) : await integrationTopUpPage(integrationId, after);
        requests.push(...page.rows);
        if (!page.next) break;
      }
      if (requests.length === 0) return { data: [], text: options.integration === undefined ? 'No hay recargas pendientes de revisión.' : 'Esa integración no ha reportado depósitos.' };
      return { data: requests.map(({ id, integrationId, integrationName, bank, reference, depositDate, amountCentavos, state, reason, createdAt }) => ({ id, integrationId, integrationName, bank, reference, depositDate, amountCentavos, state, reason, createdAt })), text: requests.map(describeTopUpRequest).join('\n') };
    },
  },
  'top-ups:duplicates': {
    usage: {
      args: [],
      description: [
        'las solicitudes de recarga que comparten banco y referencia (comparadas',
        'por sus letras y números), reportadas antes de que se compararan así;',
        'si hay alguna, las lista por grupo y termina con el código 1',
      ],
    },
    async run() {
      // Reports that are one deposit under the letters-and-digits rule but were taken apart before it.
      const groups = await referenceDuplicates();
      const data = groups.map(({ bank, key, requests }) => ({
        bank,
        bankName: bankName(bank),
        key,
        requests: requests.map(({ id, integrationId, integrationName, reference, state, amountCentavos, depositDate, createdAt }) => ({ id, integrationId, integrationName, reference, state, amountCentavos, depositDate, createdAt })),
      }));
      if (groups.length === 0) return { data, text: 'Ninguna solicitud de recarga comparte banco y referencia con otra.' };
      const text = [
        `${counted(groups.length, 'grupo', 'grupos')} de solicitudes de recarga ${groups.length === 1 ? 'comparte' : 'comparten'} banco y referencia (comparadas por sus letras y números):`,
        ...groups.flatMap(({ bank, key, requests }) => [`${bankName(bank)}, referencia ${safe(key)}: ${counted(requests.length, 'solicitud', 'solicitudes')}`, ...requests.map((request) => `  ${describeTopUpRequest(request)}`)]),
        'Un depósito se acredita una sola vez: compare cada grupo con el estado de cuenta del banco, rechace las que sobren (top-ups:reject, con el motivo) y, si se acreditó dos veces, corrija el saldo con integrations:adjust.',
      ].join('\n');
      return { data, text, exitCode: 1 };
    },
  },
  'top-ups:approve': {
    usage: {
      args: ['<solicitud>'],
      description: [
        'acredita el depósito reportado (una sola vez, con el banco y la',
        'referencia en la nota del movimiento)',
      ],
    },
    async run(args) {
      const approved = unwrap(await approveTopUpRequest(CLI_ACTOR, topUpRequestId(args)));
      return {
        data: { id: approved.request.id, state: approved.request.state, ledgerEntryId: approved.request.ledgerEntryId, balanceCentavos: approved.balanceCentavos },
        text: `Solicitud #${approved.request.id} aprobada: ${formatQuetzales(approved.request.amountCentavos)} acreditados. Saldo de la integración: ${formatQuetzales(approved.balanceCentavos)}.`,
      };
    },
  },
  'top-ups:reject': {
    usage: {
      args: ['<solicitud> --motivo "..."'],
      description: ['lo rechaza con un motivo que la integración lee; no mueve saldo'],
    },
    async run(args, options) {
      const requestId = topUpRequestId(args);
      if (typeof options.motivo !== 'string' || options.motivo.trim() === '') {
        throw new CliError('falta el motivo del rechazo: agregue --motivo "el depósito no aparece en el banco", por ejemplo (la integración lo leerá)');
      }
      const rejected = unwrap(await rejectTopUpRequest(CLI_ACTOR, requestId, options.motivo));
      return { data: { id: rejected.id, state: rejected.state, reason: rejected.reason }, text: `Solicitud #${rejected.id} rechazada; la integración verá el motivo. El saldo no cambió.` };
    },
  },
};
