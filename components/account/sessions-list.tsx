'use client';

import { useState } from 'react';
import { ActionForm } from '@/components/console/action-form';
import { useActionActivity } from '@/components/console/action-activity';
import type { ActionResult } from '@/lib/flows/auth/action';
import type { SessionRow } from '@/lib/flows/auth/session-rows';

const SESSION_ENDED_MESSAGE = 'Sesión cerrada: ese navegador tendrá que volver a iniciar sesión.';

/**
 * "Sesiones activas" in "Mi cuenta", the console's and the portal's: each browser signed in to the
 * account, and a button to end any but this one. `endSession` is the realm's own action, which
 * matches only the signed-in user's sessions.
 */
export function SessionsList({ sessions, endSession }: { sessions: SessionRow[]; endSession: (input: unknown) => Promise<ActionResult<undefined>> }) {
  // The ended session's row goes away with the refreshed list: the confirmation is kept here.
  const [notice, setNotice] = useState<string | null>(null);
  // Its "Sesión cerrada" goes when the page's next action starts, as a form's own notice does.
  useActionActivity(() => setNotice(null));
  return (
    <>
      {notice && (
        <p className="notice success" role="status">
          {notice}
        </p>
      )}
      <div className="table-wrap" role="region" aria-label="Sesiones activas" tabIndex={0}>
        <table className="data stacked" data-testid="active-sessions">
          <thead>
            <tr>
              <th>Dispositivo</th>
              <th>Dirección IP</th>
              <th>Inicio</th>
              <th>Última actividad</th>
              <th>Acciones</th>
            </tr>
          </thead>
          <tbody>
            {sessions.map((session) => (
              <tr key={session.publicId} data-session={session.publicId}>
                <td data-label="Dispositivo">
                  <span title={session.userAgent || undefined}>{session.device}</span>
                  {session.current && <span className="badge">Esta sesión</span>}
                </td>
                <td data-label="Dirección IP" className="nowrap">
                  {session.clientIp || '—'}
                </td>
                <td data-label="Inicio" className="nowrap small">
                  {session.startedAt}
                </td>
                <td data-label="Última actividad" className="nowrap small">
                  {session.lastSeenAt}
                </td>
                <td className="row-actions">
                  {session.current ? (
                    <span className="small muted">Use «Cerrar sesión» arriba</span>
                  ) : (
                    <ActionForm
                      action={endSession}
                      hidden={{ sesion: session.publicId }}
                      submitLabel="Cerrar esta sesión"
                      pendingLabel="Cerrando…"
                      className="inline"
                      submitClassName="secondary"
                      onSuccess={() => setNotice(SESSION_ENDED_MESSAGE)}
                    >
                      {null}
                    </ActionForm>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
