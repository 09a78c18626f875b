// The integrator webhook's documentation (issue 32, point 3) lists every event the notifier sends,
// each with a body of the shape it sends, and docs/integrators.md holds what /docs shows.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseEnv } from '@/lib/root/settings';
import { NOTIFICATIONS } from '@/lib/reactions/integrator-notifications/kinds';
import { TEST_TYPE } from '@/lib/reactions/integrator-notifications/test-notice';
import { retryWaitsMs, WEBHOOK_BODY_FIELDS, webhookDocsSettingsFrom, webhookEvents } from '@/lib/reactions/integrator-notifications/webhook-docs';
import { currentGuide, INTEGRATORS_GUIDE } from '../../scripts/write-webhook-docs';

const settings = webhookDocsSettingsFrom(parseEnv({}));

describe('the webhook documentation', () => {
  it('documents every event type the notifier sends, and no other', () => {
    expect(webhookEvents(settings).map((event) => event.tipo).sort()).toEqual([...Object.values(NOTIFICATIONS.type), TEST_TYPE].sort());
  });

  it('shows for each event a body with the keys every notice has, of its own type', () => {
    for (const event of webhookEvents(settings)) {
      expect(Object.keys(event.example), event.tipo).toEqual(WEBHOOK_BODY_FIELDS.map(([field]) => field));
      expect(event.example.tipo).toBe(event.tipo);
      expect(event.example.id).toMatch(/^ntf_/);
    }
  });

  it('states the retry schedule the outbox follows: 6 attempts, 5 s doubling', () => {
    expect(retryWaitsMs(settings)).toEqual([5_000, 10_000, 20_000, 40_000, 80_000]);
  });

  it('docs/integrators.md holds the section as the code writes it (run `npm run docs:webhook` after a change)', () => {
    const guide = fs.readFileSync(INTEGRATORS_GUIDE, 'utf8');
    expect(guide).toBe(currentGuide());
    for (const event of webhookEvents(settings)) expect(guide).toContain(JSON.stringify(event.example, null, 2));
    expect(guide).toContain('### Verificar la firma');
  });
});
