/**
 * Who is signing in: console staff (next-auth, lib/flows/auth/options.ts) or the people of an integrator
 * in the portal (lib/surfaces/portal, sessions of its own). Both go through the same throttle, known-device
 * cookie, attack notice, password policy and two-factor code, each with its own counts, cookies,
 * tables and audit names, so guessing at one never locks or paces the other.
 */
export type AuthRealm = 'console' | 'portal';
