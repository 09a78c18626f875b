// Integrations: creating them, listing them, one with its latest movements, and its balance's history.
import type { IntegrationFlags } from '@/lib/core/integrations/flags';
import { heldInFlight, listHistoryPage, type HistoryRow } from '@/lib/core/billing/history';
import { parseHistoryFilters } from '@/lib/presentation/history-filters';
import { createIntegration, listIntegrations } from '@/lib/flows/integration-management/service';
import { formatQuetzales } from '@/lib/platform/money';
import { isCalendarDay } from '@/lib/platform/time/guatemala-time';
import { describeLedgerActor } from '@/lib/vocabulary/actor-labels';
import { HISTORY_KIND_LABELS } from '@/lib/vocabulary/labels';
import { CliError } from '../errors';
import { terminalSafe as safe } from '../terminal-text';
import { acceptedNames, amount, integrationByArg, namedValue, parseFlagList, required } from './arguments';
import { CLI_ACTOR, unwrap, type Commands } from './command';
import { counted, describeIntegration, lowercaseFirst, TOKEN_SHOWN_ONCE, when } from './describe';

function historyLine(row: HistoryRow): string {
  const source = row.kind === 'capture' ? `consulta ${row.queryRecordId ?? '-'}` : `${safe(describeLedgerActor(row.actor))}${row.note ? `  ${safe(row.note)}` : ''}`;
  return `  ${when(row.createdAt)}  ${HISTORY_KIND_LABELS[row.kind].padEnd(16)} ${formatQuetzales(row.amountCentavos).padStart(14)}  saldo ${formatQuetzales(row.balanceAfterCentavos).padStart(14)}  ${source}`;
}

export const integrationCommands: Commands = {
  'integrations:create': {
    usage: {
      args: ['<nombre> [--tariff Q] [--balance Q] [--enable consulta,consulta|all]'],
      description: ['crea una integración; muestra su token una sola vez'],
    },
    async run(args, options) {
      const enabled = parseFlagList(options.enable);
      const flags = Object.fromEntries(enabled.map((flag) => [flag, true])) as Partial<IntegrationFlags>;
      const created = unwrap(
        await createIntegration(CLI_ACTOR, {
          nombre: required(args, 0, 'el nombre de la integración'),
          tariffCentavos: typeof options.tariff === 'string' ? amount(options.tariff, 'la tarifa (--tariff)') : 0,
          initialBalanceCentavos: typeof options.balance === 'string' ? amount(options.balance, 'el saldo inicial (--balance)') : 0,
          flags,
          note: typeof options.note === 'string' ? options.note : undefined,
        }),
      );
      return {
        data: { ...created.integration, token: created.token, tokenId: created.tokenView.id, tokenPrefix: created.tokenView.tokenPrefix },
        text: `${describeIntegration(created.integration)}\n\n${TOKEN_SHOWN_ONCE}\n  ${created.token}`,
      };
    },
  },
  'integrations:list': {
    usage: {
      args: [],
      description: ['las integraciones, con sus consultas habilitadas, tarifa y saldo'],
    },
    async run() {
      const all = await listIntegrations();
      return { data: all, text: all.length ? all.map(describeIntegration).join('\n') : 'Todavía no hay integraciones.' };
    },
  },
  'integrations:show': {
    usage: {
      args: ['<id|nombre>'],
      description: ['una integración y sus últimos movimientos de saldo'],
    },
    async run(args) {
      const integration = await integrationByArg(args);
      const { rows: ledger } = await listHistoryPage(integration.id, {}, {}, 10);
      return {
        data: { ...integration, ledger },
        text: `${describeIntegration(integration)}\n  últimos movimientos de saldo:\n${ledger.map(historyLine).join('\n') || '  (ninguno)'}`,
      };
    },
  },
  'integrations:history': {
    usage: {
      args: ['<id|nombre> [--kind recarga|ajuste|"consulta cobrada"] [--since AAAA-MM-DD] [--until AAAA-MM-DD] [--limit N]'],
      description: ['movimientos de saldo, el más reciente primero, cada uno con el saldo que dejó'],
    },
    async run(args, options) {
      const integration = await integrationByArg(args);
      // Checked here first: the shared filters' messages speak of the console's form fields, not of these options.
      const kind = typeof options.kind === 'string' ? namedValue(options.kind, HISTORY_KIND_LABELS) : undefined;
      if (typeof options.kind === 'string' && !kind) {
        throw new CliError(`--kind admite ${acceptedNames(HISTORY_KIND_LABELS, lowercaseFirst)}; se recibió «${safe(options.kind)}»`);
      }
      for (const name of ['since', 'until'] as const) {
        const value = options[name];
        if (typeof value === 'string' && !isCalendarDay(value)) throw new CliError(`--${name} es una fecha AAAA-MM-DD, como 2026-11-01 (se recibió «${safe(value)}»)`);
      }
      const { filters, problems } = parseHistoryFilters({
        tipo: kind,
        desde: typeof options.since === 'string' ? options.since : undefined,
        hasta: typeof options.until === 'string' ? options.until : undefined,
      });
      if (problems.length > 0) throw new CliError(`filtro no válido: ${problems.join(' ')}`);
      const limit = typeof options.limit === 'string' ? Number(options.limit) : 50;
      if (!Number.isInteger(limit) || limit < 1 || limit > 1_000) throw new CliError('--limit es un número entero de 1 a 1000');
      const [page, held] = await Promise.all([listHistoryPage(integration.id, filters, {}, limit), heldInFlight(integration.id)]);
      const inFlight = held.holds > 0 ? `\n  en curso: ${counted(held.holds, 'reserva', 'reservas')}, ${formatQuetzales(held.centavos)} reservados` : '';
      return {
        data: { integration: integration.nombre, balanceCentavos: integration.balanceCentavos, inFlight: held, rows: page.rows },
        text: `${safe(integration.nombre)}  saldo ${formatQuetzales(integration.balanceCentavos)}${inFlight}\n${page.rows.map(historyLine).join('\n') || '  (sin movimientos)'}`,
      };
    },
  },
};
