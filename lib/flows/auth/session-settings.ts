import { defineSettings, type SettingsOf } from '@/lib/platform/settings/fragment';
import { integer } from '@/lib/platform/settings/values';

/** A session's longest life when SESSION_MAX_HOURS is unset: a working day and its overtime. */
export const DEFAULT_SESSION_MAX_HOURS = 12;

// How long a console or portal session lives at most from its sign-in, whatever its cookie says
// (lib/flows/auth/sessions.ts); a session opened through the identity provider is also re-checked
// with it much sooner (SESSION_RECHECK_SECONDS, docs/sso.md).
export const SESSION_SETTINGS = defineSettings({
  title: 'Sessions of the console and the portal (lib/flows/auth)',
  shape: {
    SESSION_MAX_HOURS: integer(DEFAULT_SESSION_MAX_HOURS, 1, 24),
    SESSION_RECHECK_SECONDS: integer(600, 5, 3_600),
  },
  docs: {
    SESSION_MAX_HOURS: "The longest a console or portal session lasts from its sign-in, in hours (1-24); then its owner signs in again.",
    SESSION_RECHECK_SECONDS: "How often a session opened through an identity provider (the console's, or an integrator's in the portal) is re-checked there with its refresh token: a person disabled at the provider loses access within this time, and a role the directory changed applies. Ask the provider for refresh tokens (offline_access for Entra ID and Okta); without one, the session ends at SESSION_MAX_HOURS.",
  },
});

export type SessionSettings = SettingsOf<typeof SESSION_SETTINGS>;

/** How often a session opened through an identity provider is re-checked there, in seconds. */
export const sessionRecheckSeconds = (): number => SESSION_SETTINGS.current().SESSION_RECHECK_SECONDS;

/** How often the re-checking job looks for sessions due: half the interval, between 5 s and a minute. */
export const recheckEveryMs = (): number => Math.min(60_000, Math.max(5_000, (sessionRecheckSeconds() * 1000) / 2));

/** A session's longest life, in seconds, as this process's settings say. */
export const sessionMaxAgeSeconds = (): number => SESSION_SETTINGS.current().SESSION_MAX_HOURS * 3600;
