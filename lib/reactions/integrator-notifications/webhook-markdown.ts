import {
  documentedWebhookSamples,
  retryText,
  VERIFICATION_STEPS,
  WEBHOOK_BODY_FIELDS,
  WEBHOOK_HEADERS,
  WEBHOOK_SAMPLE_LANGUAGES,
  webhookEvents,
  type WebhookDocsSettings,
} from './webhook-docs';
import type { NotificationRegistry } from './kinds/register';

// The webhook section of docs/integrators.md, written from the same data as /docs
// (scripts/write-webhook-docs.ts writes it between the markers; a test checks it is current).

export const WEBHOOK_MARKDOWN_START = '<!-- webhook:start (npm run docs:webhook lo escribe desde lib/reactions/integrator-notifications/webhook-docs.ts) -->';
export const WEBHOOK_MARKDOWN_END = '<!-- webhook:end -->';

const FENCE_LANGUAGE = { curl: 'sh', javascript: 'js', python: 'python', csharp: 'csharp' } as const;

/** `registry`: the product's kinds unless a test adds one. */
export function webhookMarkdown(settings: WebhookDocsSettings, registry?: NotificationRegistry): string {
  const events = webhookEvents(settings, registry);
  const samples = documentedWebhookSamples(events);
  const lines = [
    WEBHOOK_MARKDOWN_START,
    '## 8. Avisos por webhook',
    '',
    'Además de los correos a sus contactos, el servicio puede avisar a **su webhook**: una URL `https://` pública que usted elige y que un',
    'propietario guarda en **Notificaciones** del portal (sección 9), o un administrador en la consola. Al guardarla se muestra una sola vez',
    'el **secreto de firma** (`whsec_…`): guárdelo en su gestor de secretos. Cambiar la URL genera un secreto nuevo, y el anterior deja de',
    'valer de inmediato. Cada aviso es un `POST` con un cuerpo JSON firmado. El webhook recibe todos los eventos, salvo los que se',
    'desactiven en Notificaciones; desde ahí se le envía un aviso de prueba cuando se necesite, y se ven los últimos avisos con su estado.',
    'Si su URL necesita un token propio, póngalo en la consulta (`?token=…`): el portal y la consola la muestran con la consulta oculta.',
    '',
    `Valores por omisión del servicio; el \`/docs\` de cada ambiente dice los suyos.`,
    '',
    '### Eventos',
    '',
    '| `tipo` | Cuándo | También por correo a |',
    '|---|---|---|',
    ...events.map((event) => `| \`${event.tipo}\` | ${event.when} | ${event.emailedTo ?? 'nadie: solo el webhook'} |`),
    '',
    '### El cuerpo',
    '',
    'Todos los eventos tienen las mismas claves; cambian `tipo`, `titulo`, `mensaje` y `datos`.',
    '',
    '| Campo | Qué es |',
    '|---|---|',
    ...WEBHOOK_BODY_FIELDS.map(([field, description]) => `| \`${field}\` | ${description} |`),
    '',
    'Un ejemplo de cada evento, tal como lo arma el servicio:',
    '',
    ...events.flatMap((event) => [
      `<details><summary><code>${event.tipo}</code>: ${event.title}</summary>`,
      '',
      '```json',
      JSON.stringify(event.example, null, 2),
      '```',
      '',
      '</details>',
      '',
    ]),
    '### Cabeceras',
    '',
    '| Cabecera | Ejemplo | Qué es |',
    '|---|---|---|',
    ...WEBHOOK_HEADERS.map((header) => `| \`${header.name}\` | \`${header.value}\` | ${header.description} |`),
    '',
    '### Entrega y reintentos',
    '',
    ...retryText(settings).flatMap((paragraph) => [paragraph, '']),
    '### Verificar la firma',
    '',
    ...VERIFICATION_STEPS.map((step, index) => `${index + 1}. ${step}`),
    '',
    'Receptores de ejemplo que hacen todo esto: escuchan en `PORT` (8080), leen el secreto de `SECRETO_WEBHOOK`, responden 401 a una firma',
    'o una fecha que no valen y 204 a lo demás, y procesan cada `id` una vez. El de curl firma un aviso como este servicio y lo envía, para',
    'probar su receptor (o comprobar a mano la firma de uno recibido). La suite de pruebas ejecuta los de curl, Node.js y Python contra',
    'entregas reales (`tests/examples/webhook-receivers.test.ts`).',
    '',
    ...WEBHOOK_SAMPLE_LANGUAGES.flatMap(({ key, label }) => [`#### ${label}`, '', `\`\`\`${FENCE_LANGUAGE[key]}`, samples[key], '```', '']),
    WEBHOOK_MARKDOWN_END,
  ];
  return lines.join('\n');
}

/** `document` with its webhook section (between the markers) replaced by `section`, or appended. */
export function withWebhookSection(document: string, section: string): string {
  const start = document.indexOf(WEBHOOK_MARKDOWN_START);
  const end = document.indexOf(WEBHOOK_MARKDOWN_END);
  if (start === -1 || end === -1) return `${document.trimEnd()}\n\n${section}\n`;
  return document.slice(0, start) + section + document.slice(end + WEBHOOK_MARKDOWN_END.length);
}
