// A reported deposit decided by an administrator, for whoever reacts (the integrator's billing
// contact is told: lib/root/reactions.ts subscribes lib/reactions/integrator-notifications).
import { domainEvent } from '@/lib/platform/events/domain-event';

/** A reported deposit (lib/flows/top-ups) as the integrator is told of its decision. */
export interface DecidedTopUp {
  id: number;
  bankName: string;
  reference: string;
  depositDate: string;
  /** Credited (approved), or as reported (rejected). */
  amountCentavos: number;
  /** As reported: differs from amountCentavos when the administrator credited another amount. */
  reportedAmountCentavos: number;
  /** The administrator's note on an approval (required when the amounts differ). */
  approvalNote: string | null;
  reason: string | null;
  decidedAt: Date;
}

interface IntegrationNamed {
  id: number;
  nombre: string;
}

export const topUpApproved = domainEvent<{ integration: IntegrationNamed; request: DecidedTopUp; balanceCentavos: number }>('top-ups.approved');
export const topUpRejected = domainEvent<{ integration: IntegrationNamed; request: DecidedTopUp }>('top-ups.rejected');
