import { ActionForm } from '@/components/console/action-form';
import { setIntegrationActiveAction } from '../actions';

/** Deactivating (asked first: every lookup is refused from then on) or reactivating (administrators). */
export function StatusSection({ integration }: { integration: { id: number; nombre: string; active: boolean } }) {
  return (
    <section className="card" aria-labelledby="status-title">
      <h2 id="status-title">{integration.active ? 'Desactivar' : 'Reactivar'}</h2>
      <ActionForm
        action={setIntegrationActiveAction}
        hidden={{ integrationId: integration.id, active: String(!integration.active) }}
        submitLabel={integration.active ? 'Desactivar integración' : 'Reactivar integración'}
        submitClassName={integration.active ? 'danger secondary' : undefined}
        confirmation={
          integration.active
            ? {
                kind: 'text',
                title: `¿Desactivar «${integration.nombre}»?`,
                message: 'Todas sus consultas se rechazarán hasta que la reactives. Su saldo y su historial se conservan.',
                confirmLabel: 'Desactivar integración',
              }
            : undefined
        }
      >
        <p className="small muted">
          {integration.active
            ? 'Una integración desactivada no puede consultar; su saldo y su historial se conservan.'
            : 'Al reactivarla, su token actual vuelve a funcionar.'}
        </p>
      </ActionForm>
    </section>
  );
}
