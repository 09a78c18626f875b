// The ledger's reconciliation: balances, movements and records agree, or the differences.
import { verifyLedger, type CompletedVerification, type LedgerDifference } from '@/lib/core/billing/verify';
import { findIntegration } from '@/lib/flows/integration-management/service';
import { balanceSettings } from '@/lib/core/billing/settings';
import { LEDGER_DIFFERENCE_LABELS } from '@/lib/presentation/labels';
import { ledgerDifferenceDetail, wordedDifference } from '@/lib/presentation/ledger-differences';
import { terminalSafe as safe } from '../terminal-text';
import { integrationByArg } from './arguments';
import type { Commands } from './command';
import { count, counted } from './describe';

export const ledgerCommands: Commands = {
  'ledger:verify': {
    usage: {
      args: ['[--integration id|nombre]'],
      description: [
        'concilia saldos, libro mayor y registros (y las cuentas de abajo); con',
        'diferencias, las lista y termina con el código 1',
      ],
    },
    async run(_args, options) {
      const integrationId = typeof options.integration === 'string' ? (await integrationByArg([options.integration])).id : undefined;
      const run = await verifyLedger({ integrationId, trigger: 'cli', sweepAfterSeconds: balanceSettings().HOLD_SWEEP_AFTER_SECONDS });
      // Differences are the answer, not a failure to give one: printed on stdout (and as --json) with exit code 1.
      // The run stores each difference's kind and figures; --json gives its sentence in `detail`, as it always did.
      const data = { ...run, differences: (run.differences as LedgerDifference[]).map(wordedDifference) };
      return { data, text: await verificationReport(run), exitCode: run.ok ? 0 : 1 };
    },
  },
};

/** "Libro mayor verificado: 200 integraciones, 202,482 movimientos, sin diferencias (3.1 s)." or the differences, one a line. */
async function verificationReport(run: CompletedVerification): Promise<string> {
  const seconds = ((run.finishedAt.getTime() - run.startedAt.getTime()) / 1000).toFixed(1);
  const checked = `Libro mayor verificado: ${counted(run.integrationsChecked, 'integración', 'integraciones')}, ${counted(run.entriesChecked, 'movimiento', 'movimientos')}`;
  const differences = run.differences as LedgerDifference[];
  if (differences.length === 0) return `${checked}, sin diferencias (${seconds} s).`;
  const names = new Map<number, string>();
  for (const id of new Set(differences.map((difference) => difference.integrationId))) {
    names.set(id, (await findIntegration(id))?.nombre ?? '');
  }
  return [
    `${checked}, ${counted(differences.length, 'diferencia', 'diferencias')} (${seconds} s):`,
    ...differences.map((difference) => {
      const name = names.get(difference.integrationId) ? ` «${safe(names.get(difference.integrationId))}»` : '';
      const what = LEDGER_DIFFERENCE_LABELS[difference.kind] ?? difference.kind;
      const sample = difference.sample.length > 0 ? `; para empezar a revisar: ${difference.sample.join(', ')}` : '';
      return `  Integración #${difference.integrationId}${name}: ${what} (${ledgerDifferenceDetail(difference)})${difference.count > 1 ? ` ×${count(difference.count)}` : ''}${sample}`;
    }),
  ].join('\n');
}
