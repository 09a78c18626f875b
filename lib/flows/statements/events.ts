// A monthly statement issued, for whoever reacts (the billing contact gets it with its PDF:
// lib/root/reactions.ts subscribes lib/reactions/integrator-notifications).
import { domainEvent } from '@/lib/platform/events/domain-event';
import type { StatementFigures } from './figures';

/** An issued statement as stored: what the event carries and lib/flows/statements reads back. */
export interface Statement {
  id: number;
  integrationId: number;
  month: string;
  /** 1 for the integration's first statement, then 2, 3… in the order they were issued. */
  number: number;
  figures: StatementFigures;
  createdBy: string;
  createdAt: Date;
}

/** Emitted by the instance whose insert issued it; the notice is claimed once per statement. */
export const statementIssued = domainEvent<{ integration: { id: number; nombre: string }; statement: Statement; monthLabel: string }>('statements.issued');
