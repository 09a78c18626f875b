// Constancias de consulta (docs/constancias.md): which integrations may ask for them, the log's
// sequencer and check run by hand, and a new signing key for a rotation.
import { logAudit, sequenceLog, type LogAudit } from '@/lib/core/constancias/log';
import { setConstanciaRetention, setConstancias, setConstanciasLegalHold, setConstanciaTariff } from '@/lib/flows/integration-management/service';
import { formatQuetzales } from '@/lib/platform/money';
import { formatDateTime } from '@/lib/platform/time/guatemala-time';
import { newConfiguredKey } from '@/lib/platform/transparency/signing';
import { CliError } from '../errors';
import { amount, integrationByArg } from './arguments';
import { CLI_ACTOR, unwrap, type Commands } from './command';
import { describeIntegration } from './describe';

export const constanciaCommands: Commands = {
  'integrations:constancias': {
    usage: {
      args: ['<id|nombre> [si|no] [--tarifa Q] [--retencion 5-15] [--retencion-legal si|no]'],
      description: [
        'permite (o no) que sus consultas pidan constancia (x-constancia: true), lo que cuesta cada una (se cobra con su consulta), los años que se guardan sus pruebas, y una retención legal que detiene toda depuración',
      ],
    },
    async run(args, options) {
      const integration = await integrationByArg(args);
      let updated = integration;
      if (args[1] !== undefined) updated = unwrap(await setConstancias(CLI_ACTOR, integration.id, yesOrNo(args[1], 'si o no')));
      if (options.tarifa !== undefined) updated = unwrap(await setConstanciaTariff(CLI_ACTOR, integration.id, amount(String(options.tarifa), 'la tarifa por constancia (--tarifa)')));
      if (options.retencion !== undefined) updated = unwrap(await setConstanciaRetention(CLI_ACTOR, integration.id, Number(options.retencion)));
      if (options['retencion-legal'] !== undefined) updated = unwrap(await setConstanciasLegalHold(CLI_ACTOR, integration.id, yesOrNo(String(options['retencion-legal']), '--retencion-legal si o no')));
      if (updated === integration) throw new CliError('indique si o no, --tarifa, --retencion o --retencion-legal');
      return {
        data: updated,
        text: `${describeIntegration(updated)}\nConstancias: ${updated.constanciasEnabled ? 'sí' : 'no'}, a ${formatQuetzales(updated.constanciaTariffCentavos)} cada una; pruebas guardadas ${updated.constanciaRetentionYears} años${updated.constanciasLegalHold ? '; bajo retención legal' : ''}.`,
      };
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
      const audit = await logAudit();
      const data = { ...run, audit };
      if (run.kind === 'unchanged') return { data, text: `El registro sigue con ${run.treeSize} hojas; no hay constancias nuevas.\n${auditText(audit)}` };
      return { data, text: `Cabeza firmada: ${run.head.treeSize} hojas (${run.appended} nuevas, ${run.holes} huecos).\n${auditText(audit)}` };
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

/** Where the check of the stored leaves stands: it checks a window of them each run. */
function auditText(audit: LogAudit): string {
  const pass = audit.passCompletedAt
    ? `la última revisión completa terminó el ${formatDateTime(audit.passCompletedAt)} (hora de Guatemala), sobre ${audit.passTreeSize} hojas`
    : 'aún no termina una revisión completa';
  return `Revisión de las hojas guardadas: la próxima empieza en la hoja ${audit.nextLeaf}; ${pass}.`;
}

function yesOrNo(text: string, what: string): boolean {
  const answer = text.trim().toLowerCase();
  if (answer === 'si' || answer === 'sí') return true;
  if (answer === 'no') return false;
  throw new CliError(`indique ${what}`);
}
