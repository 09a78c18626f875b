'use client';

import { useState } from 'react';
import { ActionForm } from '@/components/console/action-form';
import { endOwnPortalSessionAction } from './actions';

export interface PortalSessionRow {
  publicId: string;
  device: string;
  userAgent: string;
  clientIp: string;
  startedAt: string;
  lastSeenAt: string;
  current: boolean;
}

export function PortalSessionsList({ sessions }: { sessions: PortalSessionRow[] }) {
  const [notice, setNotice] = useState<string | null>(null);
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
                    <span className="small muted">Usa «Cerrar sesión» arriba</span>
                  ) : (
                    <ActionForm
                      action={endOwnPortalSessionAction}
                      hidden={{ sesion: session.publicId }}
                      submitLabel="Cerrar esta sesión"
                      pendingLabel="Cerrando…"
                      className="inline"
                      submitClassName="secondary"
                      onSuccess={() => setNotice('Sesión cerrada: ese navegador tendrá que volver a iniciar sesión.')}
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
