// An automatic top-up that paused, for whoever reacts (lib/root/reactions.ts: the owner and billing
// contacts and the webhook are told, once per pause).
import { domainEvent } from '@/lib/platform/events/domain-event';

export interface PausedAutoTopUp {
  integration: { id: number; nombre: string };
  /** The retry that failed: what the notice is keyed by. */
  chargeId: number;
  /** The provider's outcome, without personal data ("declined: Fondos insuficientes."). */
  reason: string;
  pausedAt: Date;
}

export const autoTopUpPaused = domainEvent<PausedAutoTopUp>('auto-top-ups.paused');
