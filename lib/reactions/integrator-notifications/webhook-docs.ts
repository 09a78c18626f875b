import { PLATFORM_SETTINGS } from '@/lib/platform/settings/env';
import { currentSettings } from '@/lib/platform/settings/fragment';
import { ALERT_SETTINGS } from '@/lib/reactions/alerts/settings';
import { INTEGRATOR_NOTIFICATION_SETTINGS, type NotificationSettingsSource } from './settings';
import { retryDelayMs } from '@/lib/reactions/alerts/settings';
import { ALERT_ID_HEADER, SIGNATURE_HEADER, TIMESTAMP_HEADER } from '@/lib/reactions/alerts/signature';
import { NOTIFICATIONS } from './kinds';
import type { IntegratorNotification } from './kinds/notice';
import type { NotificationRegistry } from './kinds/register';
import { TEST_TYPE, testNotification } from './test-notice';
import { SIGNATURE_TOLERANCE_SECONDS } from './webhook-receivers';

export {
  documentedWebhookSamples,
  SIGNATURE_TOLERANCE_SECONDS,
  WEBHOOK_SAMPLE_LANGUAGES,
  webhookSamples,
  type WebhookSampleLanguage,
  type WebhookSampleParameters,
} from './webhook-receivers';

// The integrator webhook as integrators read it, in /docs and in docs/integrators.md: every
// event the notifier sends (each kind's file says when, kinds/), each with an example body built by
// the same functions that build the real ones (only the id is fixed), the headers, the retries and
// how to verify the signature, with receivers in the four languages of the request samples
// (webhook-receivers.ts). One source for both documents: scripts/write-webhook-docs.ts writes the
// Markdown, app/docs renders the same data.

/** What the documentation says that depends on the deployment (its settings; the Markdown uses the defaults). */
export interface WebhookDocsSettings {
  serviceName: string;
  /** INTEGRATOR_NOTIFICATION_REPEAT_HOURS */
  repeatHours: number;
  /** INTEGRATOR_SOURCE_OUTAGE_MINUTES */
  sourceOutageMinutes: number;
  /** ALERT_MAX_ATTEMPTS */
  maxAttempts: number;
  /** ALERT_RETRY_BASE_MS */
  retryBaseMs: number;
  /** ALERT_WEBHOOK_TIMEOUT_MS */
  timeoutMs: number;
}

/** The HTTP headers of every notice (lib/reactions/alerts/channels.ts sendWebhook; the user agent is the notifier's). */
export const WEBHOOK_USER_AGENT = 'pasarela-consultas-avisos/1';

export interface WebhookEvent {
  tipo: string;
  /** The console's name for it. */
  title: string;
  /** When it is sent, in a sentence (with `code` in backticks). */
  when: string;
  /** The contact that gets it by e-mail too (null: only the webhook). */
  emailedTo: string | null;
  example: IntegratorNotification;
}

const CONTACT_WORDS = { technical: 'contacto técnico', billing: 'contacto de facturación' } as const;

/** The instant every example is dated: 24/11/2026 04:30 in Guatemala. */
const EXAMPLE_NOW = new Date('2026-11-24T10:30:00.000Z');
const EXAMPLE_INTEGRATION = { id: 12, nombre: 'coop-ejemplo' };
/** The portal's address in the examples, as docs/integrators.md writes the service's (`https://su-servicio/api`). */
const EXAMPLE_PORTAL_URL = 'https://su-servicio/portal';

function exampleId(n: number): string {
  return `ntf_6f1c2a9e-4b7d-4e58-9a30-${String(n).padStart(12, '0')}`;
}

/** Every event the webhook receives, in the order the documentation lists them: the registry's, then the test notice. */
export function webhookEvents(
  settings: Pick<WebhookDocsSettings, 'serviceName' | 'repeatHours' | 'sourceOutageMinutes'>,
  registry: NotificationRegistry = NOTIFICATIONS,
): WebhookEvent[] {
  const context = { serviceName: settings.serviceName, lowBalanceDefaultCentavos: 10_000, portalUrl: EXAMPLE_PORTAL_URL };
  const repeat = `Mientras dure, se repite como máximo una vez cada ${hours(settings.repeatHours)}.`;
  return [
    ...registry.declarations.map((kind) => {
      const when = typeof kind.docs.when === 'string' ? kind.docs.when : kind.docs.when(settings);
      // Each kind's example as the notifier builds it, with a fixed id.
      const example = kind.draft(kind.docs.example({ integration: EXAMPLE_INTEGRATION, now: EXAMPLE_NOW }), context, EXAMPLE_NOW).payload;
      return {
        tipo: kind.tipo,
        title: kind.label,
        when: kind.repeats ? `${when} ${repeat}` : when,
        emailedTo: CONTACT_WORDS[kind.contact],
        example: { ...example, id: exampleId(kind.docs.exampleId) },
      };
    }),
    {
      tipo: TEST_TYPE,
      title: 'Aviso de prueba',
      when: 'Alguien pulsó «Enviar aviso de prueba»: un propietario en Notificaciones del portal o un administrador en la consola, para comprobar su receptor. Solo al webhook, cuando se pide.',
      emailedTo: null,
      example: { ...testNotification(EXAMPLE_INTEGRATION, settings, EXAMPLE_NOW), id: exampleId(registry.declarations.length + 1) },
    },
  ];
}

/** The body's keys, the same for every event. */
export const WEBHOOK_BODY_FIELDS: ReadonlyArray<[string, string]> = [
  ['id', 'Identificador del aviso (`ntf_…`). El mismo en cada reintento: úselo para no procesar dos veces el mismo aviso.'],
  ['tipo', 'El evento (tabla de arriba). Ignore los tipos que no conozca: pueden agregarse otros.'],
  ['condicion', 'De qué trata (`saldo_bajo:12`, `token_revocado:41`): la misma en cada repetición de la misma condición.'],
  ['fecha', 'Cuándo se generó el aviso, en ISO 8601 (UTC).'],
  ['servicio', 'El nombre de este servicio.'],
  ['titulo', 'Una línea en español, para mostrar.'],
  ['mensaje', 'El aviso en español, para mostrar o reenviar.'],
  ['integracion', '`{ "id", "nombre" }` de su integración.'],
  ['datos', 'Los datos del evento por nombre: montos en centavos (`saldo_centavos`), fechas en ISO 8601 (UTC). Un dato que no aplica es `null`.'],
];

export interface WebhookHeader {
  name: string;
  value: string;
  description: string;
}

export const WEBHOOK_HEADERS: readonly WebhookHeader[] = [
  { name: 'content-type', value: 'application/json', description: 'El cuerpo, en UTF-8.' },
  { name: 'user-agent', value: WEBHOOK_USER_AGENT, description: 'Este servicio.' },
  { name: ALERT_ID_HEADER, value: 'ntf_…', description: 'El `id` del cuerpo: el mismo en cada reintento.' },
  { name: TIMESTAMP_HEADER, value: String(EXAMPLE_NOW.getTime() / 1000), description: 'Cuándo se envió este intento, en segundos Unix. Cambia en cada reintento.' },
  { name: SIGNATURE_HEADER, value: 'sha256=5d41…', description: 'La firma de este intento: `sha256=` y 64 dígitos hexadecimales en minúsculas.' },
];

/** How to verify a notice, step by step (with `code` in backticks). */
export const VERIFICATION_STEPS: readonly string[] = [
  'Lea el cuerpo **tal como llegó**, byte a byte, antes de interpretarlo como JSON: la firma es de esos bytes, y volver a serializar el JSON cambia espacios, orden o acentos.',
  `Tome \`X-Alerta-Fecha\` y rechace el aviso (responda 401) si se aparta más de ${SIGNATURE_TOLERANCE_SECONDS / 60} minutos (${SIGNATURE_TOLERANCE_SECONDS} segundos) de su reloj: así nadie puede repetirle más tarde un aviso capturado. Mantenga su reloj en hora (NTP).`,
  'Calcule HMAC-SHA256 con el secreto de firma como clave (el texto completo `whsec_…` en UTF-8, tal cual: no lo decodifique) sobre `<X-Alerta-Fecha>.<cuerpo>`: la fecha, un punto y el cuerpo. En hexadecimal en minúsculas, con `sha256=` delante, es la firma esperada.',
  'Compare la firma esperada con `X-Alerta-Firma` en **tiempo constante** (`crypto.timingSafeEqual`, `hmac.compare_digest`, `CryptographicOperations.FixedTimeEquals`), nunca con `==`: una comparación que termina en el primer carácter distinto deja adivinar la firma midiendo tiempos. Si no coinciden, responda 401.',
  'Si ya procesó ese `id`, responda 2xx sin procesarlo otra vez: un reintento puede llegar aunque su respuesta anterior se haya perdido.',
  'Responda 2xx pronto y haga el trabajo largo después: una respuesta que tarda más que el tiempo de espera cuenta como fallida y se reintenta.',
];

/** The waits between attempts: ALERT_RETRY_BASE_MS × 2^(n-1), at most an hour (lib/reactions/alerts/settings.ts). */
export function retryWaitsMs(settings: Pick<WebhookDocsSettings, 'maxAttempts' | 'retryBaseMs'>): number[] {
  return Array.from({ length: settings.maxAttempts - 1 }, (_, index) => retryDelayMs(settings, index + 1));
}

/** What the retries paragraph says (with `code` in backticks). */
export function retryText(settings: Pick<WebhookDocsSettings, 'maxAttempts' | 'retryBaseMs' | 'timeoutMs'>): string[] {
  const waits = retryWaitsMs(settings).map(duration);
  const schedule = waits.length === 0 ? 'no se reintenta' : `se reintenta ${waits.length === 1 ? 'una vez, tras' : `hasta ${waits.length} veces, tras`} ${list(waits)}`;
  return [
    `Un aviso está entregado cuando su receptor responde **2xx** en menos de ${duration(settings.timeoutMs)}. Cualquier otra respuesta (también una redirección: no se siguen), un tiempo de espera o un error de conexión es un intento fallido: ${schedule}; ${settings.maxAttempts} intentos en total. Luego queda como fallido.`,
    'Cada reintento lleva el mismo `id` y el mismo cuerpo, con una `X-Alerta-Fecha` y una `X-Alerta-Firma` nuevas. Los avisos pueden llegar en otro orden que el de su `fecha`.',
    'No se reintenta un aviso cuyo destino se rechaza (una dirección privada o local, o una URL que no es https://) ni uno a un webhook quitado en la consola. Cada intento, con su resultado, se ve en la sección Notificaciones de su integración en la consola y en el portal, con el cuerpo de cada aviso en JSON.',
    '«Reenviar», junto a un aviso ya intentado, lo envía otra vez al webhook actual como una entrega nueva: el mismo `id` y el mismo cuerpo, firmado de nuevo. Si ya lo procesó, descártelo por su `id`. Se puede reenviar un aviso de la integración cada 10 segundos.',
  ];
}

function duration(ms: number): string {
  if (ms >= 3_600_000 && ms % 3_600_000 === 0) return hours(ms / 3_600_000);
  if (ms >= 60_000 && ms % 60_000 === 0) return `${ms / 60_000} min`;
  return `${(ms / 1000).toLocaleString('es-GT', { maximumFractionDigits: 3 })} s`;
}

function hours(count: number): string {
  return count === 1 ? '1 hora' : `${count} horas`;
}

function list(items: string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} y ${items.at(-1)}`;
}

/** The documentation's settings out of the validated environment (the Markdown uses parseEnv({})'s defaults). */
export function webhookDocsSettingsFrom(env: Pick<NotificationSettingsSource, 'SERVICE_NAME' | 'INTEGRATOR_NOTIFICATION_REPEAT_HOURS' | 'INTEGRATOR_SOURCE_OUTAGE_MINUTES' | 'ALERT_MAX_ATTEMPTS' | 'ALERT_RETRY_BASE_MS' | 'ALERT_WEBHOOK_TIMEOUT_MS'>): WebhookDocsSettings {
  return {
    serviceName: env.SERVICE_NAME,
    repeatHours: env.INTEGRATOR_NOTIFICATION_REPEAT_HOURS,
    sourceOutageMinutes: env.INTEGRATOR_SOURCE_OUTAGE_MINUTES,
    maxAttempts: env.ALERT_MAX_ATTEMPTS,
    retryBaseMs: env.ALERT_RETRY_BASE_MS,
    timeoutMs: env.ALERT_WEBHOOK_TIMEOUT_MS,
  };
}

/** The documentation's settings as this deployment has them. */
export function webhookDocsSettings(): WebhookDocsSettings {
  return webhookDocsSettingsFrom(currentSettings([PLATFORM_SETTINGS, ALERT_SETTINGS, INTEGRATOR_NOTIFICATION_SETTINGS]));
}
