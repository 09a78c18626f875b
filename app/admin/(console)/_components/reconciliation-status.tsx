import Link from 'next/link';
import type { LedgerVerification } from '@/db/schema';
import type { FinishedVerification, LedgerDifference, VerificationState } from '@/lib/core/billing/verify';
import { formatDateTime } from '@/lib/platform/time/guatemala-time';
import { LEDGER_DIFFERENCE_LABELS } from '@/lib/presentation/labels';
import { dailyJobsHoursInWords } from '@/lib/presentation/daily-jobs';
import { integrationPath } from '@/lib/surfaces/console/integration-sections';

/**
 * The latest reconciliation of balances, ledger and records (the daily job, or
 * `npm run cli -- ledger:verify`): when it ran and what it found, optionally for one integration.
 */
export function ReconciliationStatus({ run, integrationId, names }: { run: FinishedVerification | undefined; integrationId?: number; names?: Map<number, string> }) {
  if (!run) {
    return (
      <p className="small muted" data-testid="reconciliation">
        La conciliación del libro mayor todavía no se ha ejecutado: corre sola una vez al día, {dailyJobsHoursInWords()}, y cuando se pida con «Verificar ahora» en el Panel o con <span className="mono">ledger:verify</span>.
      </p>
    );
  }
  const differences = (run.differences as LedgerDifference[]).filter((difference) => integrationId === undefined || difference.integrationId === integrationId);
  const when = formatDateTime(run.finishedAt);
  if (differences.length === 0) {
    return (
      <p className="notice success" data-testid="reconciliation">
        ✓ Conciliación del {when}: saldos, libro mayor y registros coinciden. Las cuentas cuadran: pagos acreditados, recargas facturadas, reembolsos con su nota de crédito.
      </p>
    );
  }
  return (
    <div className="notice error" role="alert" data-testid="reconciliation">
      <p>
        ✗ La conciliación del {when} encontró diferencias. Nada se corrigió solo: revíselas (<span className="mono">npm run cli -- ledger:verify</span>).
      </p>
      <ul>
        {differences.map((difference) => (
          <li key={`${difference.integrationId}-${difference.kind}`}>
            {integrationId === undefined && (
              <>
                <Link href={integrationPath(difference.integrationId, 'saldo')}>{names?.get(difference.integrationId) ?? `Integración ${difference.integrationId}`}</Link>:{' '}
              </>
            )}
            {LEDGER_DIFFERENCE_LABELS[difference.kind] ?? difference.kind} ({difference.count.toLocaleString('es-GT')})
          </li>
        ))}
      </ul>
    </div>
  );
}

const TRIGGER_LABELS: Record<string, string> = { job: 'la tarea diaria', cli: 'la línea de comandos', console: 'la consola' };

/**
 * One run as the Panel reports it while it goes and once it ended: its progress ("paso k de n"),
 * interrupted (its instance stopped before finishing), failed, or what it found over its scope.
 */
export function VerificationRunStatus({
  run,
  state,
  startedBy,
  integrationName,
  now = new Date(),
}: {
  run: LedgerVerification;
  /** Where it stands now (lib/core/billing/verify.ts), as its page's view model read it. */
  state: VerificationState;
  startedBy?: string;
  /** The name of the integration a one-integration run covered. */
  integrationName?: string;
  now?: Date;
}) {
  const integrationLabel = `la integración ${integrationName ?? run.scope}`;
  const over = run.scope === 'all' ? 'todas las integraciones' : integrationLabel;
  const who = `iniciada por ${startedBy ?? TRIGGER_LABELS[run.trigger] ?? run.trigger} el ${formatDateTime(run.startedAt)}`;
  if (state === 'running') {
    const seconds = Math.max(0, Math.floor((now.getTime() - run.startedAt.getTime()) / 1000));
    const step = Math.min(run.stepsDone + 1, run.stepsTotal);
    return (
      <div className="notice" role="status" data-testid="verification-run" data-state="running">
        <p>
          <strong>{`Verificando… paso ${step} de ${run.stepsTotal}${run.stepName ? ` (${run.stepName})` : ''}, ${seconds.toLocaleString('es-GT')} s`}</strong>
        </p>
        <progress max={run.stepsTotal} value={run.stepsDone} aria-label="Avance de la conciliación" />
        <p className="small muted">{`Conciliación de ${over}, ${who}. Esta página se actualiza sola hasta que termine.`}</p>
      </div>
    );
  }
  if (state === 'interrupted' || state === 'failed') {
    return (
      <div className="notice error" role="alert" data-testid="verification-run" data-state={state}>
        <p>
          {state === 'interrupted'
            ? `✗ La conciliación de ${over} (${who}) quedó interrumpida en el paso ${Math.min(run.stepsDone + 1, run.stepsTotal)} de ${run.stepsTotal}: su instancia dejó de responder antes de terminar. No cambió nada; iníciela de nuevo.`
            : `✗ La conciliación de ${over} (${who}) no pudo terminar: ${run.failure} No cambió nada; iníciela de nuevo.`}
        </p>
      </div>
    );
  }
  const differences = run.differences as LedgerDifference[];
  const seconds = run.finishedAt ? ((run.finishedAt.getTime() - run.startedAt.getTime()) / 1000).toLocaleString('es-GT', { maximumFractionDigits: 1 }) : '';
  const scopeLink = run.scope === 'all' ? 'todas las integraciones' : <Link href={integrationPath(run.scope, 'saldo')}>{integrationLabel}</Link>;
  if (state === 'ok') {
    return (
      <p className="notice success" role="status" data-testid="verification-run" data-state="ok">
        ✓ Conciliación de {scopeLink} ({who}, {seconds} s): saldos, libro mayor y registros coinciden. Las cuentas cuadran: pagos acreditados, recargas facturadas, reembolsos con su nota de crédito.
      </p>
    );
  }
  return (
    <div className="notice error" role="alert" data-testid="verification-run" data-state="differences">
      <p>
        ✗ La conciliación de {scopeLink} ({who}, {seconds} s) encontró diferencias. Nada se corrigió solo: revíselas.
      </p>
      <ul>
        {differences.map((difference) => (
          <li key={`${difference.integrationId}-${difference.kind}`}>
            <Link href={integrationPath(difference.integrationId, 'saldo')}>Integración {difference.integrationId}</Link>:{' '}
            {LEDGER_DIFFERENCE_LABELS[difference.kind] ?? difference.kind} ({difference.count.toLocaleString('es-GT')})
          </li>
        ))}
      </ul>
    </div>
  );
}
