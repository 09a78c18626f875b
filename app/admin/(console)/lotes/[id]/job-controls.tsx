'use client';

import { useState } from 'react';
import { useActionActivity } from '@/components/console/action-activity';
import { ActionForm } from '@/components/console/action-form';
import type { BulkJobState } from '@/db/schema';
import { PAUSE_REASON_MAX_LENGTH } from '@/lib/surfaces/console/bulk-job-words';
import { cancelJobAction, pauseJobAction, resumeJobAction } from '../actions';

// An administrator's pause, resume and cancel, each confirmed first. Pausing swaps its button for
// "Reanudar" when the page refreshes: the notice of what was done is kept here, above the buttons,
// so it is not lost with the form that sent it.
export function JobControls({ publicId, state, integrationName }: { publicId: string; state: BulkJobState; integrationName: string }) {
  const [notice, setNotice] = useState<string | null>(null);
  useActionActivity(() => setNotice(null));
  const announce = (message: string) => () => setNotice(message);
  const running = state === 'en_curso' || state === 'en_pausa_sin_saldo';
  return (
    <div className="stack" data-testid="job-controls">
      {notice && (
        <p className="notice success" role="status" data-testid="job-notice">
          {notice}
        </p>
      )}
      <div className="actions">
        {running && (
          <ActionForm
            action={pauseJobAction}
            hidden={{ lote: publicId }}
            submitLabel="Pausar"
            pendingLabel="Pausando…"
            className="inline"
            confirmation={{
              kind: 'text',
              title: `¿Pausar el lote de «${integrationName}»?`,
              message: 'No corre ninguna fila más (la que ya esté en curso termina) hasta que un administrador lo reanude; una recarga no lo reanuda. El integrador lo ve como «en_pausa», con el motivo.',
              confirmLabel: 'Pausar',
            }}
            onSuccess={announce('Lote pausado: no corre ninguna fila más hasta que un administrador lo reanude.')}
            renderSuccess={() => null}
          >
            <div className="field">
              <label htmlFor="motivo-pausa">Motivo (lo verá el integrador)</label>
              <input id="motivo-pausa" name="motivo" required minLength={3} maxLength={PAUSE_REASON_MAX_LENGTH} autoComplete="off" aria-describedby="motivo-pausa-ayuda" />
              <span className="hint" id="motivo-pausa-ayuda">
                Una frase para el integrador, por ejemplo: revisión del consumo del mes; lo reanudamos hoy.
              </span>
            </div>
          </ActionForm>
        )}
        {state === 'en_pausa' && (
          <ActionForm
            action={resumeJobAction}
            hidden={{ lote: publicId }}
            submitLabel="Reanudar"
            pendingLabel="Reanudando…"
            className="inline"
            confirmation={{
              kind: 'text',
              title: `¿Reanudar el lote de «${integrationName}»?`,
              message: 'Sus filas pendientes vuelven a correr y se cobran las encontradas, como cualquier consulta.',
              confirmLabel: 'Reanudar',
            }}
            onSuccess={announce('Lote reanudado: sus filas pendientes vuelven a correr.')}
            renderSuccess={() => null}
          >
            {null}
          </ActionForm>
        )}
        {(running || state === 'en_pausa') && (
          <ActionForm
            action={cancelJobAction}
            hidden={{ lote: publicId }}
            submitLabel="Cancelar el lote"
            pendingLabel="Cancelando…"
            className="inline"
            submitClassName="danger secondary"
            confirmation={{
              kind: 'text',
              title: `¿Cancelar el lote de «${integrationName}»?`,
              message: 'Sus filas pendientes no corren ni se cobran, y no se puede deshacer. Lo ya respondido y cobrado queda como está.',
              confirmLabel: 'Cancelar el lote',
            }}
            onSuccess={announce('Lote cancelado: sus filas pendientes no corren ni se cobran.')}
            renderSuccess={() => null}
          >
            {null}
          </ActionForm>
        )}
      </div>
    </div>
  );
}
