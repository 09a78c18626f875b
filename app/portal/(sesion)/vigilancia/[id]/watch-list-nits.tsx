'use client';

import { useRouter } from 'next/navigation';
import { ActionForm, Field } from '@/components/console/action-form';
import { MAX_PASTED_IDENTIFIERS_CHARS } from '@/lib/surfaces/portal/upload-limits';
import { editPortalWatchListNitsAction } from '../actions';

/**
 * «Agregar o quitar NIT»: what PATCH /api/vigilancias/{id} does with agregar_nits and quitar_nits,
 * pasted from a spreadsheet column. The boxes empty once saved; what was done and each NIT not
 * taken stay said until the next sending.
 */
export function WatchListNits({ publicId }: { publicId: string }) {
  const router = useRouter();
  return (
    <section className="card" aria-labelledby="vigilancia-nits">
      <h2 id="vigilancia-nits">Agregar o quitar NIT</h2>
      <p className="small muted">
        Un NIT por línea, o separados por comas, con o sin guion. Los agregados se consultan desde la próxima ejecución, que guarda su estado sin reportar cambios;
        los quitados se borran con su último estado y sus cambios. Una ejecución en curso termina con los NIT con que empezó.
      </p>
      <ActionForm
        action={editPortalWatchListNitsAction}
        hidden={{ vigilancia: publicId }}
        submitLabel="Guardar NIT"
        pendingLabel="Guardando…"
        resetOnSuccess
        successStays
        onSuccess={() => router.refresh()}
      >
        <Field name="agregar" label="Agregar" rows={4} autoComplete="off" spellCheck={false} maxLength={MAX_PASTED_IDENTIFIERS_CHARS} hint="Por ejemplo: 576937-K" />
        <Field name="quitar" label="Quitar" rows={4} autoComplete="off" spellCheck={false} maxLength={MAX_PASTED_IDENTIFIERS_CHARS} />
      </ActionForm>
    </section>
  );
}
