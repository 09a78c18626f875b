// A notice kind is one file (issue 66, point 2): a new kind takes at most four files, and everything
// an integrator or an administrator sees of it follows from its declaration. The four:
//   1. lib/reactions/integrator-notifications/kinds/<kind>.ts: defineNotificationKind({...}).
//   2. Its line in lib/reactions/integrator-notifications/kinds/index.ts, the registry.
//   3. Its value in the alert_condition enum, db/schema/alerts.ts.
//   4. Its migration, written by `npm run db:generate` (db/migrations/NNNN_*.sql; drizzle-kit also
//      updates its own db/migrations/meta, generated with it).
// After them `npm run docs:webhook` rewrites docs/integrators.md (tests/examples/webhook-docs.test.ts
// fails until it is run). Nothing else names a kind: the switches, the documentation, the e-mails and
// the events heard read the registry.
//
// The fake kind below is declared through the same defineNotificationKind as the real ones and
// registered the way the product registers its own (registerNotificationKinds over the product's
// list plus it). It never reaches the database, so it needs no enum value and no migration: what it
// proves is what a kind's file gives; that the other three steps are all a real kind needs is checked
// structurally at the end (every kind declared is listed, every listed kind is in the enum, every enum
// value has its migration), and by the compiler (kinds/index.ts: a kind missing from the list, or one
// not in the enum, does not compile).
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { alertCondition } from '@/db/schema';
import { domainEvent } from '@/lib/platform/events/domain-event';
import { parseEnv } from '@/lib/root/settings';
import { NON_NOTICE_CONDITION_LABELS } from '@/lib/presentation/alert-labels';
import { notificationMail } from '@/lib/reactions/integrator-notifications/email';
import { listen } from '@/lib/reactions/integrator-notifications/hearing';
import { NOTIFICATIONS } from '@/lib/reactions/integrator-notifications/kinds';
import { defineNotificationKind, on, type IntegrationNamed, type NotificationDraft } from '@/lib/reactions/integrator-notifications/kinds/notice';
import { registerNotificationKinds } from '@/lib/reactions/integrator-notifications/kinds/register';
import { notificationSwitches } from '@/lib/reactions/integrator-notifications/preferences';
import { webhookDocsSettingsFrom, webhookEvents } from '@/lib/reactions/integrator-notifications/webhook-docs';
import { webhookMarkdown } from '@/lib/reactions/integrator-notifications/webhook-markdown';

const KINDS_DIRECTORY = path.resolve('lib/reactions/integrator-notifications/kinds');

interface WidgetsCounted {
  integration: IntegrationNamed;
  widgets: number;
  costCentavos: number;
  countedAt: Date;
}

/** What the product would emit where the widgets are counted (lib/core/…/events.ts). */
const widgetsCountedEvent = domainEvent<WidgetsCounted>('tests.widgets-counted');

const widgetsCounted = defineNotificationKind({
  kind: 'widgets_counted',
  tipo: 'widgets_contados',
  contact: 'billing',
  label: 'Widgets contados',
  emailLabels: { widgets: 'Widgets', costo_centavos: 'Costo del conteo' },
  notice: ({ integration, widgets, costCentavos, countedAt }: WidgetsCounted) => ({
    integration,
    key: `widgets_contados:${integration.id}:${countedAt.getTime()}`,
    titulo: 'Se contaron sus widgets',
    mensaje: `Contamos ${widgets} widgets de «${integration.nombre}».`,
    datos: { widgets, costo_centavos: costCentavos, contados: countedAt.toISOString() },
  }),
  docs: {
    when: 'Se contaron los widgets de su integración (`datos.widgets`). Uno por conteo.',
    exampleId: NOTIFICATIONS.declarations.length + 1,
    example: ({ integration, now }) => ({ integration, widgets: 7, costCentavos: 1_234, countedAt: now }),
  },
  heard: on(widgetsCountedEvent),
});

const withWidgets = registerNotificationKinds([...NOTIFICATIONS.declarations, widgetsCounted]);
const context = { serviceName: 'Pasarela', lowBalanceDefaultCentavos: 10_000, portalUrl: 'https://consultas.example/portal' };
const integration = { id: 12, nombre: 'coop-ejemplo' };
const countedAt = new Date('2026-11-24T10:30:00.000Z');
const settings = webhookDocsSettingsFrom(parseEnv({}));

describe('a notice kind declared in one file and listed once', () => {
  it('shows a switch in Notificaciones for its contact and the webhook, by its name, on until turned off', () => {
    const rows = (optOuts: Set<string>) => Object.fromEntries(notificationSwitches(optOuts, withWidgets).map((group) => [group.recipient, group.rows.filter((row) => row.kind === 'widgets_counted')]));
    expect(rows(new Set())).toEqual({
      technical: [],
      billing: [{ recipient: 'billing', kind: 'widgets_counted', label: 'Widgets contados', enabled: true }],
      webhook: [{ recipient: 'webhook', kind: 'widgets_counted', label: 'Widgets contados', enabled: true }],
    });
    expect(rows(new Set(['billing:widgets_counted'])).billing).toEqual([{ recipient: 'billing', kind: 'widgets_counted', label: 'Widgets contados', enabled: false }]);
    // The product's switches are as they were.
    expect(notificationSwitches(new Set())).toEqual(notificationSwitches(new Set(), withWidgets).map((group) => ({ ...group, rows: group.rows.filter((row) => row.kind !== 'widgets_counted') })));
  });

  it('shows no switch when it is always sent', () => {
    const alwaysSent = defineNotificationKind({ ...widgetsCounted, alwaysSent: true });
    const registry = registerNotificationKinds([...NOTIFICATIONS.declarations, alwaysSent]);
    expect(notificationSwitches(new Set(), registry).flatMap((group) => group.rows).filter((row) => row.kind === 'widgets_counted')).toEqual([]);
    expect(registry.alwaysSent).toContain('widgets_counted');
  });

  it('is queued when its event is heard, with its tipo, its condition, its words and its datos', async () => {
    const recorded: NotificationDraft<string>[] = [];
    const stop = listen(widgetsCounted, () => ({ settings: context, record: async (draft) => recorded.push(draft) }))!;
    try {
      await widgetsCountedEvent.emit({ integration, widgets: 7, costCentavos: 1_234, countedAt });
    } finally {
      stop();
    }
    expect(recorded).toHaveLength(1);
    const [draft] = recorded;
    expect(draft).toMatchObject({ kind: 'widgets_counted', key: `integrator:widgets_contados:12:${countedAt.getTime()}`, integrationId: 12 });
    // Told once per key, as every kind that does not repeat.
    expect(draft!.intervalSeconds).toBeGreaterThan(365 * 24 * 3_600);
    expect(draft!.payload).toMatchObject({
      tipo: 'widgets_contados',
      condicion: `widgets_contados:12:${countedAt.getTime()}`,
      servicio: 'Pasarela',
      titulo: 'Se contaron sus widgets',
      mensaje: 'Contamos 7 widgets de «coop-ejemplo».',
      integracion: integration,
      datos: { widgets: 7, costo_centavos: 1_234, contados: countedAt.toISOString() },
    });
    expect(draft!.payload.id).toMatch(/^ntf_/);
  });

  it('is in the webhook documentation: its tipo, when, who is e-mailed and an example body, before the test notice', () => {
    const events = webhookEvents(settings, withWidgets);
    const product = webhookEvents(settings);
    expect(events.map((event) => event.tipo)).toEqual([...product.slice(0, -1).map((event) => event.tipo), 'widgets_contados', 'prueba']);
    const widgets = events.find((event) => event.tipo === 'widgets_contados')!;
    expect(widgets).toMatchObject({
      title: 'Widgets contados',
      when: 'Se contaron los widgets de su integración (`datos.widgets`). Uno por conteo.',
      emailedTo: 'contacto de facturación',
      example: { id: 'ntf_6f1c2a9e-4b7d-4e58-9a30-000000000023', tipo: 'widgets_contados', datos: { widgets: 7, costo_centavos: 1_234 } },
    });
    expect(events.at(-1)!.example.id).toBe('ntf_6f1c2a9e-4b7d-4e58-9a30-000000000024');
    const markdown = webhookMarkdown(settings, withWidgets);
    expect(markdown).toContain('| `widgets_contados` | Se contaron los widgets de su integración (`datos.widgets`). Uno por conteo. | contacto de facturación |');
    expect(markdown).toContain('<details><summary><code>widgets_contados</code>: Widgets contados</summary>');
  });

  it('is e-mailed in its words, its datos named as it names them', () => {
    const { payload } = widgetsCounted.draft({ integration, widgets: 7, costCentavos: 1_234, countedAt }, context, countedAt);
    const mail = notificationMail(payload, { email: 'pagos@coop-ejemplo.example', name: 'Fabio', contact: 'billing' }, [], withWidgets);
    expect(mail.subject).toBe('[Pasarela] Se contaron sus widgets');
    expect(mail.text).toContain('Hola, Fabio:\n\nContamos 7 widgets de «coop-ejemplo».\n\nIntegración: coop-ejemplo\nWidgets: 7\nCosto del conteo: Q 12.34\n');
    // A datum its kind does not name is left to the webhook.
    expect(mail.text).not.toContain('contados');
    expect(mail.text).toContain('Recibe este aviso como contacto de facturación');
  });
});

describe('what a real kind needs besides its file', () => {
  it('every kind declared under kinds/ is in the registry, and the registry lists nothing else', async () => {
    const declared = [];
    for (const file of fs.readdirSync(KINDS_DIRECTORY).filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'))) {
      const exported = (await import(path.join(KINDS_DIRECTORY, file))) as Record<string, unknown>;
      declared.push(...Object.values(exported).filter((value) => value && typeof value === 'object' && 'tipo' in value && 'docs' in value && 'draft' in value));
    }
    expect(new Set(declared)).toEqual(new Set(NOTIFICATIONS.declarations));
  });

  it("the registry's kinds are exactly the enum's values that are notice kinds", () => {
    const notices = alertCondition.enumValues.filter((condition) => !Object.hasOwn(NON_NOTICE_CONDITION_LABELS, condition));
    expect([...NOTIFICATIONS.kinds].sort()).toEqual([...notices].sort());
  });

  it("every value of the enum has its migration", () => {
    const sql = fs
      .readdirSync(path.resolve('db/migrations'))
      .filter((name) => name.endsWith('.sql'))
      .map((name) => fs.readFileSync(path.resolve('db/migrations', name), 'utf8'))
      .join('\n');
    const created = [...sql.matchAll(/CREATE TYPE "public"\."alert_condition" AS ENUM\(([^)]*)\)/g)].flatMap(([, values]) => values!.split(',').map((value) => value.trim().replaceAll("'", '')));
    const added = [...sql.matchAll(/ALTER TYPE "public"\."alert_condition" ADD VALUE '([^']+)'/g)].map(([, value]) => value!);
    expect([...created, ...added].sort()).toEqual([...alertCondition.enumValues].sort());
  });

  it('lib/README.md\'s "A notice to integrators" lists these four steps, in these files', () => {
    const readme = fs.readFileSync(path.resolve('lib/README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('**A notice to integrators**'), readme.indexOf('**A catalog lookup**'));
    const steps = [...section.matchAll(/^\d\. [^\n]*/gm)].map(([step]) => step);
    expect(steps).toHaveLength(4);
    expect(steps[0]).toContain('`lib/reactions/integrator-notifications/kinds/<kind>.ts`');
    expect(steps[1]).toContain('`kinds/index.ts`');
    expect(steps[2]).toContain('`db/schema/alerts.ts`');
    expect(steps[3]).toContain('`npm run db:generate`');
    expect(alertCondition.enumName).toBe('alert_condition');
  });
});
