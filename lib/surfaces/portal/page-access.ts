// Who may open each portal page and use its actions, as the pages name it when they ask
// requirePortalPage and portalAction: the roles are the portal's people's (lib/flows/portal-identity).
export {
  ACTIVITY_READERS,
  BALANCE_READERS,
  BILLING_READERS,
  BULK_JOB_READERS,
  BULK_JOB_RUNNERS,
  CREDENTIAL_MANAGERS,
  CREDENTIAL_READERS,
  LOOKUP_READERS,
  NOTIFICATION_MANAGERS,
  PORTAL_ROLE_DESCRIPTIONS,
  PORTAL_ROLE_LABELS,
  PORTAL_ROLES,
  portalPageRoles,
  portalRolesSentence,
  RECORD_READERS,
  TEAM_MANAGERS,
  TOP_UP_REPORTERS,
  USAGE_READERS,
} from '@/lib/flows/portal-identity/roles';
