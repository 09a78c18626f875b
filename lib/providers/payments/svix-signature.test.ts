// Svix's signature scheme as Recurrente's webhooks use it: what is accepted, and every refusal.

import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { RECURRENTE_SIM_DEV_KEYS } from '../../../simulator/recurrente';
import { verifyRecurrenteWebhook } from './recurrente';
import { isWebhookSecret, svixSignature, verifySvix } from './svix-signature';

const secret = RECURRENTE_SIM_DEV_KEYS.webhookSecret;
const body = JSON.stringify({ id: 'pa_1', event_type: 'payment_intent.succeeded', amount_in_cents: 11_200, currency: 'GTQ', payment: { id: 'pa_1' }, checkout: { id: 'ch_1', metadata: { top_up_id: 'recarga-0001' } } });
const sentAt = new Date('2026-11-27T20:00:00Z');
const seconds = Math.floor(sentAt.getTime() / 1000);

function headers(overrides: Partial<Record<'svix-id' | 'svix-timestamp' | 'svix-signature', string>> = {}) {
  return { 'svix-id': 'msg_1', 'svix-timestamp': String(seconds), 'svix-signature': svixSignature(secret, 'msg_1', seconds, body), ...overrides };
}

describe('svix signatures', () => {
  it('computes HMAC-SHA256 over id.timestamp.body with the base64 key after whsec_', () => {
    const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
    const expected = createHmac('sha256', key).update(`msg_1.${seconds}.${body}`).digest('base64');
    expect(svixSignature(secret, 'msg_1', seconds, body)).toBe(`v1,${expected}`);
  });

  it('accepts a valid delivery, headers in any case, and one signature among several (a secret being rotated)', () => {
    expect(verifySvix({ secret, headers: headers(), body, now: sentAt })).toEqual({ ok: true, id: 'msg_1', timestamp: sentAt });
    const upper = { 'Svix-Id': 'msg_1', 'SVIX-TIMESTAMP': String(seconds), 'Svix-Signature': `v1,AAAA v1,${svixSignature(secret, 'msg_1', seconds, body).slice(3)}` };
    expect(verifySvix({ secret, headers: upper, body, now: new Date(sentAt.getTime() + 299_000) })).toMatchObject({ ok: true });
  });

  it('refuses a bad signature: another secret, a changed body, a changed id, no v1', () => {
    const other = `whsec_${Buffer.from('otra-llave-de-dieciseis-bytes').toString('base64')}`;
    expect(verifySvix({ secret, headers: headers({ 'svix-signature': svixSignature(other, 'msg_1', seconds, body) }), body, now: sentAt })).toEqual({ ok: false, reason: 'bad_signature' });
    expect(verifySvix({ secret, headers: headers(), body: body.replace('11200', '99900'), now: sentAt })).toEqual({ ok: false, reason: 'bad_signature' });
    expect(verifySvix({ secret, headers: headers({ 'svix-id': 'msg_2' }), body, now: sentAt })).toEqual({ ok: false, reason: 'bad_signature' });
    expect(verifySvix({ secret, headers: headers({ 'svix-signature': 'v2,abc' }), body, now: sentAt })).toEqual({ ok: false, reason: 'bad_signature' });
    expect(verifySvix({ secret, headers: headers({ 'svix-timestamp': 'ayer' }), body, now: sentAt })).toEqual({ ok: false, reason: 'bad_signature' });
  });

  it('refuses a timestamp beyond the tolerance, in the past or the future', () => {
    expect(verifySvix({ secret, headers: headers(), body, now: new Date(sentAt.getTime() + 301_000) })).toEqual({ ok: false, reason: 'stale_timestamp' });
    expect(verifySvix({ secret, headers: headers(), body, now: new Date(sentAt.getTime() - 301_000) })).toEqual({ ok: false, reason: 'stale_timestamp' });
    expect(verifySvix({ secret, headers: headers(), body, now: new Date(sentAt.getTime() + 59_000), toleranceSeconds: 60 })).toMatchObject({ ok: true });
    expect(verifySvix({ secret, headers: headers(), body, now: new Date(sentAt.getTime() + 61_000), toleranceSeconds: 60 })).toEqual({ ok: false, reason: 'stale_timestamp' });
  });

  it('refuses a replay: the same message an hour later, or re-dated with its old signature', () => {
    const anHourLater = new Date(sentAt.getTime() + 3_600_000);
    expect(verifySvix({ secret, headers: headers(), body, now: anHourLater })).toEqual({ ok: false, reason: 'stale_timestamp' });
    const redated = headers({ 'svix-timestamp': String(seconds + 3_600) });
    expect(verifySvix({ secret, headers: redated, body, now: anHourLater })).toEqual({ ok: false, reason: 'bad_signature' });
  });

  it('refuses a delivery without its three headers', () => {
    for (const name of ['svix-id', 'svix-timestamp', 'svix-signature'] as const) {
      expect(verifySvix({ secret, headers: headers({ [name]: '' }), body, now: sentAt })).toEqual({ ok: false, reason: 'missing_headers' });
    }
  });

  it('knows a signing secret when it sees one', () => {
    expect(isWebhookSecret(secret)).toBe(true);
    expect(isWebhookSecret('whsec_corto')).toBe(false);
    expect(isWebhookSecret(secret.slice('whsec_'.length))).toBe(false);
  });
});

describe('a Recurrente webhook verified and read', () => {
  it('answers the event of a valid delivery, and refuses a body that is not an event', () => {
    expect(verifyRecurrenteWebhook({ secret, headers: headers(), rawBody: body, now: sentAt })).toEqual({
      kind: 'verified',
      event: {
        messageId: 'msg_1',
        providerType: 'payment_intent.succeeded',
        checkoutId: 'ch_1',
        topUpId: 'recarga-0001',
        state: { kind: 'approved', paymentId: 'pa_1', amountCentavos: 11_200, currency: 'GTQ', method: 'card', paymentMethodId: null, feeCentavos: null, refundedCentavos: 0, card: null },
        occurredAt: null,
      },
    });
    const notAnEvent = '[1,2]';
    const signed = { 'svix-id': 'msg_3', 'svix-timestamp': String(seconds), 'svix-signature': svixSignature(secret, 'msg_3', seconds, notAnEvent) };
    expect(verifyRecurrenteWebhook({ secret, headers: signed, rawBody: notAnEvent, now: sentAt })).toEqual({ kind: 'refused', reason: 'unreadable_body' });
    expect(verifyRecurrenteWebhook({ secret, headers: headers(), rawBody: body, now: new Date(sentAt.getTime() + 600_000) })).toEqual({ kind: 'refused', reason: 'stale_timestamp' });
  });
});
