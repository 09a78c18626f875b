import Link from 'next/link';
import type { LedgerVerification } from '@/db/schema';
import type { LedgerDifference } from '@/lib/billing/verify';
import { formatDateTime } from '@/lib/format/guatemala-time';
import { LEDGER_DIFFERENCE_LABELS } from '@/lib/format/labels';

/**
 * The latest reconciliation of balances, ledger and records (the daily job, or
 * `npm run cli -- ledger:verify`): when it ran and what it found, optionally for one integration.
 */
export function ReconciliationStatus({ run, integrationId }: { run: LedgerVerification | undefined; integrationId?: number }) {
  if (!run) {
    return (
      <p className="small muted" data-testid="reconciliation">
        La conciliación del libro mayor todavía no se ha ejecutado (corre una vez al día, o con <span className="mono">ledger:verify</span>).
      </p>
    );
  }
  const differences = (run.differences as LedgerDifference[]).filter((difference) => integrationId === undefined || difference.integrationId === integrationId);
  const when = formatDateTime(run.finishedAt);
  if (differences.length === 0) {
    return (
      <p className="notice success" data-testid="reconciliation">
        ✓ Conciliación del {when}: saldos, libro mayor y registros coinciden.
      </p>
    );
  }
  return (
    <div className="notice error" role="alert" data-testid="reconciliation">
      <p>
        ✗ La conciliación del {when} encontró diferencias. Nada se corrigió solo: revísalas (<span className="mono">npm run cli -- ledger:verify</span>).
      </p>
      <ul>
        {differences.map((difference) => (
          <li key={`${difference.integrationId}-${difference.kind}`}>
            {integrationId === undefined && (
              <>
                <Link href={`/admin/integraciones/${difference.integrationId}`}>Integración {difference.integrationId}</Link>:{' '}
              </>
            )}
            {LEDGER_DIFFERENCE_LABELS[difference.kind] ?? difference.kind} ({difference.count.toLocaleString('es-GT')})
          </li>
        ))}
      </ul>
    </div>
  );
}
