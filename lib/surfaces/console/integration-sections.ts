import type { AlertCondition, RefusalReason } from '@/db/schema';

// An integration's page is seven sections, each at its own address, so that a link, a bookmark or a
// colleague's message opens the part it is about. Every link into an
// integration names its section through these functions: the slugs live here only.

export const INTEGRATION_SECTIONS = [
  { key: 'resumen', slug: '', label: 'Resumen' },
  { key: 'credenciales', slug: 'credenciales', label: 'Credenciales' },
  { key: 'saldo', slug: 'saldo', label: 'Saldo y estados de cuenta' },
  { key: 'notificaciones', slug: 'notificaciones', label: 'Notificaciones' },
  { key: 'datos', slug: 'datos', label: 'Datos de la integración' },
  // The integrator's own people in its portal: who they are, their roles, invitations.
  { key: 'portal', slug: 'portal', label: 'Portal' },
  { key: 'uso', slug: 'uso', label: 'Uso' },
] as const;

export type IntegrationSection = (typeof INTEGRATION_SECTIONS)[number]['key'];

/**
 * Pages below a section that are not sections themselves (the whole balance history, a statement's
 * preview): the navigation marks their section as the one the user is in.
 */
const SUBPAGES: Record<string, IntegrationSection> = { movimientos: 'saldo', estados: 'saldo' };

export function integrationPath(id: number | string, section: IntegrationSection = 'resumen'): string {
  const { slug } = INTEGRATION_SECTIONS.find((entry) => entry.key === section)!;
  return slug ? `/admin/integraciones/${id}/${slug}` : `/admin/integraciones/${id}`;
}

/** The balance history and the statements' preview, beside the saldo section. */
export function balanceHistoryPath(id: number | string): string {
  return `/admin/integraciones/${id}/movimientos`;
}

export function statementsPath(id: number | string): string {
  return `/admin/integraciones/${id}/estados`;
}

/**
 * Every page that shows something of the integration, for revalidatePath after a change: the
 * header (name, legal name, state) is on all of them, so any change may show on any of them.
 */
export function integrationPaths(id: number | string): string[] {
  return [...INTEGRATION_SECTIONS.map((section) => integrationPath(id, section.key)), balanceHistoryPath(id)];
}

/** Which section a path of an integration's pages belongs to (none for other paths). */
export function sectionOfPath(pathname: string): IntegrationSection | undefined {
  const match = /^\/admin\/integraciones\/\d+(?:\/([^/?#]+))?/.exec(pathname);
  if (!match) return undefined;
  const first = match[1];
  if (first === undefined) return 'resumen';
  return INTEGRATION_SECTIONS.find((section) => section.slug === first)?.key ?? SUBPAGES[first];
}

/** Where an audit entry about an integration is seen: the section its change was made in. */
export function sectionOfAuditAction(action: string): IntegrationSection {
  switch (action) {
    case 'integration.rotate_token':
    case 'integration.set_allowed_networks':
    case 'token.create':
    case 'token.revoke':
      return 'credenciales';
    case 'integration.set_tariff':
    case 'integration.set_constancia_tariff':
    case 'integration.set_low_balance_alert':
    case 'balance.top_up':
    case 'balance.adjust':
    case 'invoice.void':
    case 'invoice.credit_note':
    case 'invoice.reversal_refused':
    case 'invoice.reversal_to_correct':
    case 'top_up_request.report':
    case 'top_up_request.approve':
    case 'top_up_request.reject':
    case 'auto_top_up.enable':
    case 'auto_top_up.resume':
    case 'auto_top_up.disable':
    case 'auto_top_up.pause':
      return 'saldo';
    case 'integration.set_notification_webhook':
    case 'integration.remove_notification_webhook':
    case 'integration.set_notification_opt_outs':
    case 'integration.send_test_notification':
    case 'integration.resend_notification':
      return 'notificaciones';
    // The integration's own identity provider for the portal: its people's sign-in.
    case 'integration.identity_provider_set':
    case 'integration.identity_provider_remove':
      return 'portal';
    case 'integration.set_details':
    case 'integration.set_receptor':
    case 'integration.set_billing_contact':
    case 'invoice.correct_receptor':
    case 'invoice.reissued':
    case 'invoice.correction_refused':
    case 'invoice.retry':
    case 'invoice.reversal_retry':
    case 'integration.set_purpose':
    case 'integration.deactivate':
    case 'integration.reactivate':
      return 'datos';
    default:
      // Its creation and the lookups enabled: the summary shows both.
      return 'resumen';
  }
}

/** Where an alert or notice about an integration leads: what it is about. */
export function sectionOfAlertCondition(condition: AlertCondition): IntegrationSection {
  switch (condition) {
    case 'balance_low':
    case 'balance_exhausted':
    case 'statement_issued':
    case 'tariff_changed':
    case 'top_up_approved':
    case 'top_up_rejected':
    case 'online_top_up_credited':
    case 'online_top_up_expired':
    case 'auto_top_up_paused':
    case 'books_mismatch':
      return 'saldo';
    case 'invoice_awaiting_receptor':
      // The receptor its invoices wait for is registered in Datos.
      return 'datos';
    case 'token_expiring':
    case 'token_revoked':
    case 'token_created':
    case 'token_rotated':
    case 'allow_list_changed':
      return 'credenciales';
    case 'lookups_changed':
      // The lookups enabled are on the summary.
      return 'resumen';
    default:
      // Test notices and source outages: the integration's notifications list them.
      return 'notificaciones';
  }
}

/** Where a request refused before the source is explained: what the integration can change. */
export function sectionOfRefusal(reason: RefusalReason): IntegrationSection {
  switch (reason) {
    case 'credentials_missing':
    case 'credentials_invalid':
    case 'ip_not_allowed':
      return 'credenciales';
    case 'balance_exhausted':
      return 'saldo';
    case 'not_enabled':
      return 'resumen';
    default:
      // Limits and invalid bodies: the usage section counts refusals by reason.
      return 'uso';
  }
}
