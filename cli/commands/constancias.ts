// Constancias de consulta (docs/constancias.md): which integrations may ask for them, the log's
// sequencer and check run by hand, and a new signing key for a rotation.
import { sequenceLog } from '@/lib/core/constancias/log';
import { setConstancias } from '@/lib/flows/integration-management/service';
import { newConfiguredKey } from '@/lib/platform/transparency/signing';
import { CliError } from '../errors';
import { integrationByArg, required } from './arguments';
import { CLI_ACTOR, unwrap, type Commands } from './command';
import { describeIntegration } from './describe';

export const constanciaCommands: Commands = {
  'integrations:constancias': {
    usage: {
      args: ['<id|nombre> <si|no>'],
      description: ['permite (o no) que sus consultas pidan constancia (x-constancia: true)'],
    },
    async run(args) {
      const integration = await integrationByArg(args);
      const answer = required(args, 1, 'si o no').toLowerCase();
      if (answer !== 'si' && answer !== 'no') throw new CliError('indique si o no');
      const updated = unwrap(await setConstancias(CLI_ACTOR, integration.id, answer === 'si'));
      return { data: updated, text: describeIntegration(updated) };
    },
  },
  'constancias:registro': {
    usage: {
      args: [],
      description: ['agrega al registro las constancias nuevas, comprueba el registro y firma su cabeza (lo hace solo cada pocos minutos)'],
    },
    async run() {
      const run = await sequenceLog();
      if (run.kind === 'tampered') throw new CliError(`el registro no coincide con lo firmado: ${run.detail}. No se firmó una cabeza nueva.`);
      if (run.kind === 'unchanged') return { data: run, text: `El registro sigue con ${run.treeSize} hojas; no hay constancias nuevas.` };
      return { data: run, text: `Cabeza firmada: ${run.head.treeSize} hojas (${run.appended} nuevas, ${run.holes} huecos).` };
    },
  },
  'constancias:nueva-clave': {
    usage: {
      args: ['[--desde AAAA-MM-DDTHH:MM:SSZ]'],
      description: ['imprime una clave de firma nueva para CONSTANCIA_SIGNING_KEYS (firma desde --desde; publíquela antes)'],
    },
    async run(_args, options) {
      const from = typeof options.desde === 'string' ? new Date(options.desde) : new Date();
      if (Number.isNaN(from.getTime())) throw new CliError('--desde debe ser una fecha y hora ISO 8601, como 2027-01-01T00:00:00Z');
      const key = newConfiguredKey(from);
      return { data: key, text: JSON.stringify(key, null, 2) };
    },
  },
};
