// What an integration pays: its tariff, and its balance topped up or adjusted by the operator.
import { adjustBalance, topUp } from '@/lib/core/billing/ledger';
import { wordedBalance } from '@/lib/presentation/balance-refusals';
import { INVOICE_MESSAGES } from '@/lib/presentation/invoice-messages';
import { setTariff } from '@/lib/flows/integration-management/service';
import { formatQuetzales } from '@/lib/platform/money';
import { CliError, MissingArgument } from '../errors';
import { terminalSafe as safe } from '../terminal-text';
import { amount, integrationByArg, required, signedAmount, typedAmount } from './arguments';
import { CLI_ACTOR, unwrap, type Commands } from './command';
import { describeIntegration } from './describe';

export const billingCommands: Commands = {
  'integrations:tariff': {
    usage: {
      args: ['<id|nombre> <Q>'],
      description: ['fija la tarifa por consulta de catálogo'],
    },
    async run(args) {
      const integration = await integrationByArg(args);
      const updated = unwrap(await setTariff(CLI_ACTOR, integration.id, amount(required(args, 1, 'la tarifa, en quetzales'), 'la tarifa')));
      return { data: updated, text: describeIntegration(updated) };
    },
  },
  'integrations:top-up': {
    usage: {
      args: ['<id|nombre> <Q> --note "..."'],
      description: ['recarga saldo (la nota dice de dónde vino el dinero)'],
    },
    async run(args, options) {
      const integration = await integrationByArg(args);
      // The console's message speaks of its field; here the note is an option, named as such.
      if (typeof options.note !== 'string' || options.note.trim().length === 0) {
        throw new CliError('falta la nota de la recarga: agregue --note "depósito 123456 de Banrural", por ejemplo (queda en el historial del saldo)');
      }
      const result = unwrap(
        wordedBalance(await topUp(CLI_ACTOR, integration.id, amount(required(args, 1, 'el monto de la recarga, en quetzales'), 'el monto de la recarga'), String(options.note ?? ''))),
      );
      const invoice = result.invoiceAwaitsReceptor ? `\n${INVOICE_MESSAGES.awaitingReceptor}` : result.invoiceDeferred ? `\n${INVOICE_MESSAGES.deferred}` : '';
      return { data: result, text: `${safe(integration.nombre)}: recarga registrada, saldo ${formatQuetzales(result.balanceCentavos)}${invoice}` };
    },
  },
  'integrations:adjust': {
    usage: {
      args: ['<id|nombre> <+Q|-Q> --note "..."'],
      description: ['suma (+10.00) al saldo o le resta (-5.00)'],
    },
    async run(args, options) {
      const integration = await integrationByArg(args);
      const typed = args[1];
      if (!typed) throw new MissingArgument('falta el monto del ajuste: +10.00 suma, -5.00 resta');
      const centavos = signedAmount(typed);
      if (centavos === undefined) {
        throw new CliError(`el monto del ajuste se escribe en quetzales con su signo, como +10.00 para sumar o -5.00 para restar (se recibió «${safe(typedAmount(typed))}»)`);
      }
      const result = unwrap(wordedBalance(await adjustBalance(CLI_ACTOR, integration.id, centavos, String(options.note ?? ''))));
      return { data: result, text: `${safe(integration.nombre)}: ajuste de ${formatQuetzales(centavos)}, saldo ${formatQuetzales(result.balanceCentavos)}` };
    },
  },
};
