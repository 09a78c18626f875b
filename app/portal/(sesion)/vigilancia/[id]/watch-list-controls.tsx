'use client';

import { useRouter } from 'next/navigation';
import { ActionForm } from '@/components/console/action-form';
import type { WatchListState } from '@/lib/flows/watch-lists';
import { deletePortalWatchListAction, pausePortalWatchListAction, resumePortalWatchListAction, setPortalWatchListConstanciasAction } from '../actions';

interface WatchListControlsProps {
  publicId: string;
  state: WatchListState;
  /** Whether its runs ask for constancias now. */
  constancias: boolean;
  /** Whether the integration has constancias on: only then can they be asked for. */
  constanciasAvailable: boolean;
}

/**
 * Pause or resume, ask for constancias or stop, and delete, each asked first: deleting drops its
 * NITs and changes for good.
 */
export function WatchListControls({ publicId, state, constancias, constanciasAvailable }: WatchListControlsProps) {
  const router = useRouter();
  const paused = state === 'en_pausa';
  return (
    <section className="card" aria-labelledby="vigilancia-acciones">
      <h2 id="vigilancia-acciones">Acciones</h2>
      {(constancias || constanciasAvailable) && (
        <>
          <p className="small muted">
            {constancias
              ? 'Pide una constancia de consulta por cada NIT encontrado en cada ejecución; cada cambio trae la de la respuesta que lo mostró.'
              : 'Puede pedir una constancia de consulta por cada NIT encontrado en cada ejecución (con su tarifa, si su integración tiene una).'}
          </p>
          <ActionForm
            action={setPortalWatchListConstanciasAction}
            hidden={{ vigilancia: publicId, constancias: constancias ? 'no' : 'si' }}
            submitLabel={constancias ? 'Dejar de pedir constancias' : 'Pedir constancias'}
            pendingLabel="Guardando…"
            submitClassName="secondary"
            confirmation={{
              kind: 'text',
              title: constancias ? '¿Dejar de pedir constancias?' : '¿Pedir constancias en esta vigilancia?',
              message: constancias
                ? 'Desde su próxima ejecución, sus cambios ya no traen constancia. Una ejecución en curso termina como empezó.'
                : 'Desde su próxima ejecución, cada NIT encontrado trae su constancia de consulta. Una ejecución en curso termina como empezó.',
              confirmLabel: constancias ? 'Dejar de pedirlas' : 'Pedir constancias',
            }}
            onSuccess={() => router.refresh()}
          >
            {null}
          </ActionForm>
        </>
      )}
      <p className="small muted">
        {paused
          ? 'Al reanudarla vuelve a su frecuencia; si una ejecución quedó pendiente mientras estaba en pausa, corre en seguida.'
          : 'En pausa no empieza ninguna ejecución (la que esté corriendo termina) y no se cobra nada más.'}
      </p>
      <ActionForm
        action={paused ? resumePortalWatchListAction : pausePortalWatchListAction}
        hidden={{ vigilancia: publicId }}
        submitLabel={paused ? 'Reanudar' : 'Pausar'}
        pendingLabel={paused ? 'Reanudando…' : 'Pausando…'}
        submitClassName="secondary"
        confirmation={{
          kind: 'text',
          title: paused ? '¿Reanudar esta vigilancia?' : '¿Pausar esta vigilancia?',
          message: paused ? 'Sus ejecuciones vuelven a correr y a cobrarse según su frecuencia.' : 'No correrá ni se cobrará ninguna ejecución hasta que la reanude.',
          confirmLabel: paused ? 'Reanudar' : 'Pausar',
        }}
        onSuccess={() => router.refresh()}
      >
        {null}
      </ActionForm>
      <p className="small muted">Eliminarla borra sus NIT y sus cambios; una ejecución en curso se cancela. Sus ejecuciones terminadas siguen en Lotes.</p>
      <ActionForm
        action={deletePortalWatchListAction}
        hidden={{ vigilancia: publicId }}
        submitLabel="Eliminar vigilancia"
        pendingLabel="Eliminando…"
        submitClassName="danger"
        confirmation={{
          kind: 'text',
          title: '¿Eliminar esta vigilancia?',
          message: 'Se borran sus NIT y sus cambios, y no vuelve a ejecutarse. No se puede deshacer.',
          confirmLabel: 'Eliminar vigilancia',
        }}
        onSuccess={(data) => router.push(data.path)}
      >
        {null}
      </ActionForm>
    </section>
  );
}
