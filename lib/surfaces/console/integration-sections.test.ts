import { describe, expect, it } from 'vitest';
import { alertCondition, refusalReason } from '@/db/schema';
import { AUDIT_ACTION_LABELS } from '@/lib/presentation/labels';
import {
  INTEGRATION_SECTIONS,
  integrationPath,
  integrationPaths,
  sectionOfAlertCondition,
  sectionOfAuditAction,
  sectionOfPath,
  sectionOfRefusal,
} from './integration-sections';

describe("an integration's sections have addresses of their own", () => {
  it('the summary is the integration itself; the others are below it', () => {
    expect(integrationPath(12)).toBe('/admin/integraciones/12');
    expect(INTEGRATION_SECTIONS.map((section) => integrationPath(12, section.key))).toEqual([
      '/admin/integraciones/12',
      '/admin/integraciones/12/credenciales',
      '/admin/integraciones/12/saldo',
      '/admin/integraciones/12/notificaciones',
      '/admin/integraciones/12/datos',
      '/admin/integraciones/12/portal',
      '/admin/integraciones/12/uso',
    ]);
  });

  it('a path says which section the user is in; the balance history and the statements are in saldo', () => {
    expect(sectionOfPath('/admin/integraciones/12')).toBe('resumen');
    expect(sectionOfPath('/admin/integraciones/12/credenciales')).toBe('credenciales');
    expect(sectionOfPath('/admin/integraciones/12/uso')).toBe('uso');
    expect(sectionOfPath('/admin/integraciones/12/movimientos')).toBe('saldo');
    expect(sectionOfPath('/admin/integraciones/12/estados/vista-previa')).toBe('saldo');
    expect(sectionOfPath('/admin/integraciones/nueva')).toBeUndefined();
    expect(sectionOfPath('/admin/integraciones')).toBeUndefined();
    expect(sectionOfPath('/admin/registros/12')).toBeUndefined();
  });

  it('a change refreshes every page of the integration (its header is on all of them)', () => {
    expect(integrationPaths(3)).toEqual([...INTEGRATION_SECTIONS.map((section) => integrationPath(3, section.key)), '/admin/integraciones/3/movimientos']);
  });
});

describe('links into an integration open the section they are about', () => {
  it('each audited change of an integration leads to where it was made', () => {
    const integrationActions = Object.keys(AUDIT_ACTION_LABELS).filter((action) => /^(integration|token|balance|top_up_request)\./.test(action));
    const sections = Object.fromEntries(integrationActions.map((action) => [action, sectionOfAuditAction(action)]));
    expect(sections).toEqual({
      'integration.create': 'resumen',
      'integration.set_flags': 'resumen',
      'integration.set_constancias': 'resumen',
      'integration.set_constancia_retention': 'resumen',
      'integration.set_constancias_legal_hold': 'resumen',
      'integration.set_tariff': 'saldo',
      'integration.set_constancia_tariff': 'saldo',
      'integration.set_low_balance_alert': 'saldo',
      'integration.set_allowed_networks': 'credenciales',
      'integration.set_purpose': 'datos',
      'integration.set_details': 'datos',
      'integration.set_billing_contact': 'datos',
      'integration.set_receptor': 'datos',
      'integration.set_notification_webhook': 'notificaciones',
      'integration.remove_notification_webhook': 'notificaciones',
      'integration.set_notification_opt_outs': 'notificaciones',
      'integration.send_test_notification': 'notificaciones',
      'integration.resend_notification': 'notificaciones',
      'integration.identity_provider_set': 'portal',
      'integration.identity_provider_remove': 'portal',
      'token.create': 'credenciales',
      'token.revoke': 'credenciales',
      'integration.deactivate': 'datos',
      'integration.reactivate': 'datos',
      'integration.rotate_token': 'credenciales',
      'balance.top_up': 'saldo',
      'balance.adjust': 'saldo',
      'top_up_request.report': 'saldo',
      'top_up_request.approve': 'saldo',
      'top_up_request.reject': 'saldo',
    });
  });

  it('an alert leads to what it is about', () => {
    const sections = Object.fromEntries(alertCondition.enumValues.map((condition) => [condition, sectionOfAlertCondition(condition)]));
    expect(sections).toMatchObject({
      balance_low: 'saldo',
      balance_exhausted: 'saldo',
      statement_issued: 'saldo',
      top_up_approved: 'saldo',
      top_up_rejected: 'saldo',
      token_expiring: 'credenciales',
      token_revoked: 'credenciales',
      token_created: 'credenciales',
      token_rotated: 'credenciales',
      allow_list_changed: 'credenciales',
      test: 'notificaciones',
      source_unavailable: 'notificaciones',
    });
  });

  it('a refused request leads to what the integration can change about it', () => {
    const sections = Object.fromEntries(refusalReason.enumValues.map((reason) => [reason, sectionOfRefusal(reason)]));
    expect(sections).toEqual({
      credentials_missing: 'credenciales',
      credentials_invalid: 'credenciales',
      ip_not_allowed: 'credenciales',
      not_enabled: 'resumen',
      balance_exhausted: 'saldo',
      rate_limited: 'uso',
      ip_rate_limited: 'uso',
      invalid_request: 'uso',
      too_many_nits: 'uso',
      // A GET on a lookup: the integrator's code to fix, seen among the refusals by reason.
      method_not_allowed: 'uso',
    });
  });
});
