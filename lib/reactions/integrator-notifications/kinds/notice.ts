import { randomUUID } from 'node:crypto';
import type { Executor } from '@/db/client';
import type { AlertCondition, Integration, NonNoticeCondition, NotificationRecipient } from '@/db/schema';
import type { Mail } from '@/lib/platform/mail/smtp';

// What every notice kind is made of, and the words they share. Each kind is one file beside this one
// (defineNotificationKind), listed once in ./index.ts; what an integrator is told is decided there
// without I/O (in Spanish, short, readable on a phone).

/** An alert_condition value that is a notice kind (db/schema/alerts.ts). */
export type NotificationKind = Exclude<AlertCondition, NonNoticeCondition>;

/** The contact a kind is e-mailed to (the webhook, when there is one, gets every kind). */
export type NotificationContact = Exclude<NotificationRecipient, 'webhook'>;

export interface IntegrationNamed {
  id: number;
  nombre: string;
}

/** The webhook's JSON body; the e-mail says the same in words. */
export interface IntegratorNotification {
  id: string;
  tipo: string;
  /** What it is about, the same for every repeat of the condition ("saldo_bajo:12"). */
  condicion: string;
  fecha: string;
  servicio: string;
  titulo: string;
  mensaje: string;
  integracion: IntegrationNamed;
  /** The facts, by name (amounts in centavos, dates in ISO 8601). */
  datos: Record<string, string | number | null>;
}

/** A notification about to be queued: its dedup key and how long that key holds. */
export interface NotificationDraft<K extends string = NotificationKind> {
  kind: K;
  /** Unique per condition (and per occurrence, for events that happen once): the outbox's claim. */
  key: string;
  /** null: the deployment's INTEGRATOR_NOTIFICATION_REPEAT_HOURS. */
  intervalSeconds: number | null;
  integrationId: number;
  payload: IntegratorNotification;
  /** The statement whose PDF the e-mail attaches. */
  statementId?: number;
}

export interface Context {
  serviceName: string;
  lowBalanceDefaultCentavos: number;
  /** The portal's public address (`https://…/portal`), for links in the notices; without it they name the page. */
  portalUrl?: string;
  /** Whether the deployment takes online payments: the balance notices say how to top up accordingly. */
  paysOnline?: boolean;
}

/** What a kind says of one occurrence: the condition it is about (its key), its words and its facts. */
export interface NoticeWords {
  integration: IntegrationNamed;
  /** The `condicion`, as "saldo_bajo:12": unique per condition, or per occurrence for what happens once. */
  key: string;
  titulo: string;
  mensaje: string;
  datos: IntegratorNotification['datos'];
  statementId?: number;
}

/** A domain event (lib/platform/events/domain-event.ts) or any emitter listened to alike. */
export interface Heard<P> {
  subscribe(listener: (payload: P) => Promise<void> | void): () => void;
}

/** The event that tells a kind, and the facts it carries (null: nothing to tell this time). */
export interface Hearing<P, F> {
  event: Heard<P>;
  facts(payload: P): F | null | Promise<F | null>;
  /** A failure to queue fails the event, whose emitter tells it again; otherwise it is logged and the change stands. */
  failsTheEvent?: boolean;
}

/** `event` tells the kind: its payload is the facts, or `facts` makes them of it. */
export function on<P, F = P>(event: Heard<P>, facts?: (payload: P) => F | null | Promise<F | null>, options: { failsTheEvent?: boolean } = {}): Hearing<P, F> {
  return { event, facts: facts ?? ((payload) => payload as unknown as F), ...options };
}

/** What the webhook documentation says that depends on the deployment. */
export interface DocumentedSettings {
  repeatHours: number;
  sourceOutageMinutes: number;
}

/** Everything about one notice kind. */
export interface NotificationKindSpec<K extends string, F, P> {
  /** Its alert_condition value (db/schema/alerts.ts). */
  kind: K;
  /** The webhook's `tipo`. */
  tipo: string;
  contact: NotificationContact;
  /** Sent to its contact and the webhook always: no switch shows it. */
  alwaysSent?: boolean;
  /** Told again every INTEGRATOR_NOTIFICATION_REPEAT_HOURS while it lasts; otherwise once per key. */
  repeats?: boolean;
  /** Its name in the console and the portal (Notificaciones, Alertas, the audit) and the documentation. */
  label: string;
  /** How its e-mail names its own `datos` (those several kinds share: email.ts); one without a name is not listed. */
  emailLabels?: Readonly<Record<string, string>>;
  notice(facts: F, context: Context): NoticeWords;
  docs: {
    /** When it is sent, in a sentence (`code` in backticks); a kind that repeats gets how often after it. */
    when: string | ((settings: DocumentedSettings) => string);
    /** Its example's number in the documented ids (ntf_…-000000000013), 1 to n: a new kind takes the next. */
    exampleId: number;
    example(sample: { integration: IntegrationNamed; now: Date }): F;
  };
  /** The event that tells it; absent, a job or another reaction records its drafts. */
  heard?: Hearing<P, F>;
  /** Other addresses that get its e-mail, as its contact's copies (the contact's own is left out). */
  alsoEmailed?(integration: Integration, tx: Executor): Promise<string[]>;
  /** What its e-mail attaches, read when it is sent. */
  attachments?(notification: IntegratorNotification): Promise<Mail['attachments']>;
}

export interface NotificationKindDeclaration<K extends string = string, F = unknown, P = unknown> extends NotificationKindSpec<K, F, P> {
  draft(facts: F, context: Context, now?: Date): NotificationDraft<K>;
}

/** A notice kind's declaration, with its draft: the body its webhook gets, keyed for the outbox. */
export function defineNotificationKind<K extends string, F, P = never>(spec: NotificationKindSpec<K, F, P>): NotificationKindDeclaration<K, F, P> {
  return {
    ...spec,
    draft(facts, context, now = new Date()) {
      const words = spec.notice(facts, context);
      return {
        kind: spec.kind,
        key: `integrator:${words.key}`,
        intervalSeconds: spec.repeats ? null : ONCE,
        integrationId: words.integration.id,
        statementId: words.statementId,
        payload: {
          id: `ntf_${randomUUID()}`,
          tipo: spec.tipo,
          condicion: words.key,
          fecha: now.toISOString(),
          servicio: context.serviceName,
          titulo: words.titulo,
          mensaje: words.mensaje,
          integracion: { id: words.integration.id, nombre: words.integration.nombre },
          datos: words.datos,
        },
      };
    },
  };
}

/** What happens once (a token's revocation, a statement) is claimed for this long: "never again". */
const ONCE = 10 * 365 * 24 * 3_600;

/** A portal page as a notice names it: its full address when the service's public URL is known. */
export function portalPage(context: Context, path: string): string {
  return context.portalUrl ? `${context.portalUrl}${path}` : `/portal${path}`;
}

export function guatemalaTime(instant: Date): string {
  return instant.toLocaleString('es-GT', { timeZone: 'America/Guatemala', dateStyle: 'long', timeStyle: 'short' });
}

export function count(n: number, one: string, many: string): string {
  return `${n.toLocaleString('es-GT')} ${n === 1 ? one : many}`;
}
