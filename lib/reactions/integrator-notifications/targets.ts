import {
  checkedDispatcher as checkedOutboundDispatcher,
  checkedLookup as checkedOutboundLookup,
  outboundTargetProblem,
  type Resolver,
  type TargetPolicy,
} from '@/lib/platform/security/outbound-targets';

// Where an integrator's webhook may be sent: the policy for any target an integrator chooses
// (lib/platform/security/outbound-targets.ts, which the portal's identity providers follow too),
// with the webhook's own words. The checks run when the URL is saved and again at every delivery,
// after DNS resolution, and the connection goes to the address that was checked.

export { embeddedIpv4Addresses, forbiddenAddressReason, withoutTrailingDot, type Resolver, type TargetPolicy } from '@/lib/platform/security/outbound-targets';

/** The error code of a delivery refused at its connection (read by the notifier and the alerts' delivery errors). */
const WEBHOOK_TARGET_REFUSED = 'EWEBHOOKTARGET';

/**
 * Why this URL can never be a webhook under the policy, without resolving it (the console says so
 * when it is typed; the delivery checks it again): the scheme, credentials, a port fetch refuses,
 * and a host that is itself a forbidden address.
 */
export function webhookTargetProblem(url: string, policy: TargetPolicy): string | undefined {
  return outboundTargetProblem(url, policy, { credentials: 'no debe llevar usuario ni contraseña: el receptor comprueba la firma' });
}

/** The `lookup` a webhook connection uses (outbound-targets.ts's), its refusals coded EWEBHOOKTARGET. */
export function checkedLookup(policy: TargetPolicy, resolve?: Resolver) {
  return checkedOutboundLookup(policy, resolve, WEBHOOK_TARGET_REFUSED);
}

/** The HTTP dispatcher webhook deliveries go through: every connection's address checked as above. */
export function checkedDispatcher(policy: TargetPolicy, resolve?: Resolver) {
  return checkedOutboundDispatcher(policy, resolve, WEBHOOK_TARGET_REFUSED);
}
