import { formatDateTime } from '@/lib/platform/time/guatemala-time';
import { describeDevice } from './devices';
import type { ActiveSession } from './sessions';

/** A row of "Sesiones activas" as the browser gets it: the device named, the times formatted. */
export interface SessionRow {
  publicId: string;
  device: string;
  userAgent: string;
  clientIp: string;
  startedAt: string;
  lastSeenAt: string;
  current: boolean;
}

/** The rows of "Sesiones activas" (console and portal), the session of this request marked as current. */
export function activeSessionRows(sessions: ActiveSession[], currentPublicId: string): SessionRow[] {
  return sessions.map((session) => ({
    publicId: session.publicId,
    device: describeDevice(session.userAgent),
    userAgent: session.userAgent,
    clientIp: session.clientIp,
    startedAt: formatDateTime(session.createdAt),
    lastSeenAt: formatDateTime(session.lastSeenAt),
    current: session.publicId === currentPublicId,
  }));
}
