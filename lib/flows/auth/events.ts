// What sign-in sees that someone should hear of: an account whose password is being guessed (its
// owner is e-mailed: lib/root/reactions.ts subscribes lib/reactions/alerts/attack-notice.ts).
import { domainEvent } from '@/lib/platform/events/domain-event';
import type { AuthRealm } from './realm';

/** A wrong password for an existing account, with the account's failures so far. Its listeners never throw: a sign-in must not fail for them. */
export const signInFailedForAccount = domainEvent<{ account: { id: number; email: string }; failures: number; realm: AuthRealm }>('auth.sign-in-failed-for-account');
