// Token, allow-list, notification and webhook changes read like the rest of the audit (issue 32,
// point 2): Spanish labels and Guatemala's times, not the stored keys, JSON and UTC (the page
// showed `revokedAt: … → 2026-11-24T10:30:34.681Z`, `allowedNetworks: [] → [...]` and
// `desactivados: ["technical:token_expiring"]`).
import { describe, expect, it } from 'vitest';
import { auditChanges, formatAuditValue } from '@/lib/surfaces/console/audit';
import { auditFieldLabel } from './audit-labels';

/** Each changed field as the audit page writes it: "Label: before → after". */
function lines(before: Record<string, unknown>, after: Record<string, unknown>): string[] {
  return auditChanges({ before, after }).map(
    (change) => `${auditFieldLabel(change.field)}: ${formatAuditValue(change.field, change.before)} → ${formatAuditValue(change.field, change.after)}`,
  );
}

const TOKEN = { tokenId: 7, label: 'Producción', tokenPrefix: 'gw_3f9a', expiresAt: null, revokedAt: null };

describe('the audit of credentials and notifications', () => {
  it('says a token revocation with its date in Guatemala', () => {
    expect(lines(TOKEN, { ...TOKEN, revokedAt: '2026-11-24T10:30:34.681Z' })).toEqual(['Revocado: no → 24/11/2026, 04:30:34']);
  });

  it('says a rotation: the new token, the one it replaced and when that stops working, and the overlap', () => {
    const replaced = { ...TOKEN, expiresAt: '2026-11-24T11:30:00.000Z' };
    const changes = lines(TOKEN, { ...TOKEN, tokenId: 8, tokenPrefix: 'gw_77c1', replaced, overlap: '1h' });
    expect(changes).toEqual([
      'Inicio del token: gw_3f9a → gw_77c1',
      'Token: n.º 7 → n.º 8',
      'Token reemplazado: — → «Producción» (gw_3f9a…), deja de funcionar el 24/11/2026, 05:30:00',
      'Superposición: — → 1 hora',
    ]);
  });

  it('says the allow-list, the webhook and the notices turned off in words', () => {
    expect(lines({ allowedNetworks: [] }, { allowedNetworks: ['203.0.113.0/24', '198.51.100.7'] })).toEqual([
      'Direcciones IP permitidas: cualquier dirección (sin lista) → 203.0.113.0/24, 198.51.100.7',
    ]);
    expect(lines({ webhook: null }, { webhook: 'https://hooks.example.com/avisos' })).toEqual(['Webhook de avisos: ninguno → https://hooks.example.com/avisos']);
    // The webhook as it is read back on the integration's page: the path, the query masked (issue 32, point 3),
    // also for an entry that held a whole URL.
    expect(lines({ webhook: 'https://hooks.example.com/pasarela/…' }, { webhook: 'https://hooks.example.com/gateway?token=s3cr3t-t0ken' })).toEqual([
      'Webhook de avisos: https://hooks.example.com/pasarela/… → https://hooks.example.com/gateway?••••',
    ]);
    expect(lines({ desactivados: [] }, { desactivados: ['technical:token_expiring', 'billing:balance_low'] })).toEqual([
      'Avisos desactivados: ninguno → Token por vencer al contacto técnico; Saldo bajo al contacto de facturación',
    ]);
  });

  it('says a test notice (an entry that states, with nothing before): to which webhook or channels, and which notice', () => {
    const stated = (after: Record<string, unknown>) =>
      auditChanges({ before: null, after }).map((change) => `${auditFieldLabel(change.field)}: ${formatAuditValue(change.field, change.after)}`);
    expect(stated({ webhook: 'https://hooks.example.com/gateway?••••', aviso: 'ntf_5b1c' })).toEqual([
      'Webhook de avisos: https://hooks.example.com/gateway?••••',
      'Aviso de prueba: ntf_5b1c',
    ]);
    expect(stated({ canales: ['webhook', 'email'], aviso: 'alr_9f2e' })).toEqual(['Aviso de prueba: alr_9f2e', 'Canales de alerta: webhook y correo']);
  });

  it('leaves no raw key, JSON or UTC time in what it shows', () => {
    const shown = lines({ ...TOKEN, allowedNetworks: [], desactivados: [] }, { ...TOKEN, revokedAt: '2026-11-24T10:30:34.681Z', allowedNetworks: ['10.0.0.1'], desactivados: ['webhook:token_revoked'] }).join('\n');
    // (desactivados is a Spanish word: its label says it too.)
    expect(shown).not.toMatch(/revokedAt|allowedNetworks|technical|token_|\[|\]|"|\dT\d|Z\b/);
  });
});

describe('the audit of the portal’s people', () => {
  it('says which pending invitations an owner’s removal revoked, and who had sent them', () => {
    expect(lines({ invitedBy: 'duena@example.com', invitations: [{ email: 'a@example.com', role: 'facturacion' }, { email: 'b@example.com', role: 'propietario' }] }, {})).toEqual([
      'Enviadas por: duena@example.com → —',
      'Invitaciones anuladas: a@example.com (Facturación), b@example.com (Propietario) → —',
    ]);
  });
});

describe('the audit of the money paths (issue 64, point 9)', () => {
  it('says a deposit report, an online payment and an automatic top-up in words: no field name, state code, provider id or ISO date', () => {
    const approved = lines(
      { requestId: 4, state: 'pending', amountCentavos: 125_050 },
      { requestId: 4, state: 'approved', amountCentavos: 120_000, reportedAmountCentavos: 125_050, ledgerEntryId: 81, bank: 'BI', depositDate: '2026-11-27' },
    );
    expect(approved).toEqual(
      expect.arrayContaining(['Estado: Pendiente de revisión → Acreditada', 'Monto: Q 1,250.50 → Q 1,200.00', 'Fecha del depósito: — → 27/11/2026', 'Banco: — → Banco Industrial']),
    );
    const credited = lines(
      { onlinePaymentId: 'recarga-1', state: 'pending_transfer' },
      { onlinePaymentId: 'recarga-1', state: 'credited', amountCentavos: 10_000, feeCentavos: 650, provider: 'recurrente', source: 'webhook' },
    );
    expect(credited).toEqual(expect.arrayContaining(['Estado: Pendiente (transferencia en proceso) → Acreditado', 'Comisión: — → Q 6.50', 'Proveedor de pagos: — → Recurrente', 'Avisado por: — → aviso del proveedor']));
    const automatic = lines({ state: 'off', thresholdCentavos: 10_000 }, { state: 'active', thresholdCentavos: 50_000, dailyMax: 2 });
    expect(automatic).toEqual(['Estado: Desactivada → Activa', 'Umbral de la recarga automática: Q 100.00 → Q 500.00', 'Máximo de recargas automáticas por día: — → 2']);
    const shown = [...approved, ...credited, ...automatic].join('\n');
    expect(shown).not.toMatch(/ledgerEntryId|feeCentavos|thresholdCentavos|depositDate|pending_transfer|credited\b|\d{4}-\d{2}-\d{2}/);
  });
});
