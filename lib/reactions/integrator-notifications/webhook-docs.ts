import { PLATFORM_SETTINGS } from '@/lib/platform/settings/env';
import { currentSettings } from '@/lib/platform/settings/fragment';
import { ALERT_SETTINGS } from '@/lib/reactions/alerts/settings';
import { INTEGRATOR_NOTIFICATION_SETTINGS, type NotificationSettingsSource } from './settings';
import { ALERT_CONDITION_LABELS } from '@/lib/presentation/alert-labels';
import { SOURCE_LABELS } from '@/lib/vocabulary/labels';
import { retryDelayMs } from '@/lib/reactions/alerts/settings';
import { ALERT_ID_HEADER, SIGNATURE_HEADER, TIMESTAMP_HEADER } from '@/lib/reactions/alerts/signature';
import {
  allowListChangedNotification,
  balanceNotification,
  KIND_CONTACT,
  KIND_TYPE,
  lookupsChangedNotification,
  tariffChangedNotification,
  sourceNotification,
  statementNotification,
  TEST_TYPE,
  testNotification,
  tokenCreatedNotification,
  tokenExpiringNotification,
  tokenRevokedNotification,
  tokenRotatedNotification,
  topUpApprovedNotification,
  topUpRejectedNotification,
  onlineTopUpCreditedNotification,
  onlineTopUpExpiredNotification,
  autoTopUpPausedNotification,
  invoiceAwaitingReceptorNotification,
  bulkJobFinishedNotification,
  bulkJobPausedNotification,
  watchListChangesNotification,
  invoiceIssuedNotification,
  type IntegratorNotification,
  type NotificationDraft,
  type NotificationKind,
} from './kinds';

// The integrator webhook as integrators read it, in /docs and in docs/integrators.md: every
// event the notifier sends, each with an example body built by the same functions
// that build the real ones (only the id is fixed), the headers, the retries and how to verify the
// signature, with receivers in the four languages of the request samples. One source for both
// documents: scripts/write-webhook-docs.ts writes the Markdown, app/docs renders the same data.

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

/** How many seconds apart a notice's X-Alerta-Fecha and the receiver's clock may be (lib/reactions/alerts/signature.ts). */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

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
const EXAMPLE_PORTAL_PERSON = { kind: 'portal', email: 'ana@coop-ejemplo.example' } as const;

/** Each kind's example as the notifier builds it, with a fixed id. */
function examples(serviceName: string): Record<NotificationKind, IntegratorNotification> {
  const context = { serviceName, lowBalanceDefaultCentavos: 10_000, portalUrl: EXAMPLE_PORTAL_URL };
  const balance = { integrationId: EXAMPLE_INTEGRATION.id, nombre: EXAMPLE_INTEGRATION.nombre, tariffCentavos: 150, lowBalanceAlertCentavos: null };
  const token = { id: 41, label: 'Producción', tokenPrefix: 'tlk_3f9a', expiresAt: null, revokedAt: null };
  const outage = { source: 'catalog', label: SOURCE_LABELS.catalog, since: new Date(EXAMPLE_NOW.getTime() - 25 * 60_000) };
  const statement = {
    id: 88,
    month: '2026-10',
    number: 7,
    figures: { openingBalanceCentavos: 50_000, closingBalanceCentavos: 31_250, charges: { count: 125, totalCentavos: 18_750 } },
  };
  const topUp = { id: 19, bankName: 'Banco Industrial', reference: '88123456', depositDate: '2026-11-23', amountCentavos: 50_000, reportedAmountCentavos: 50_000, approvalNote: null, reason: null, decidedAt: EXAMPLE_NOW };
  const lote = {
    publicId: 'lote_3f9a0c17e2b48d5a6c01',
    catalog: 'omisos',
    state: 'completado' as const,
    counts: { total: 5_000, pending: 0, found: 4_862, notFound: 96, invalid: 30, rejected: 4, failed: 12 },
    chargedCentavos: 4_862 * 150,
    finishedAt: EXAMPLE_NOW,
  };
  const onlinePayment = { id: 'recarga-0f3c2a9b-5d1e-4c7a-9e21-3b8d6f0a1c55', method: 'card' as const, amountCentavos: 10_000, providerPaymentId: 'pa_tarjeta0001', settledAt: EXAMPLE_NOW };
  const drafts: Record<NotificationKind, NotificationDraft | null> = {
    balance_low: balanceNotification({ ...balance, balanceCentavos: 8_000 }, context, EXAMPLE_NOW),
    balance_exhausted: balanceNotification({ ...balance, balanceCentavos: 100 }, context, EXAMPLE_NOW),
    statement_issued: statementNotification(EXAMPLE_INTEGRATION, statement, 'octubre de 2026', context, EXAMPLE_NOW),
    token_expiring: tokenExpiringNotification(EXAMPLE_INTEGRATION, { ...token, expiresAt: new Date('2026-12-01T06:00:00.000Z') }, '7d', context, EXAMPLE_NOW),
    token_revoked: tokenRevokedNotification(EXAMPLE_INTEGRATION, { ...token, revokedAt: EXAMPLE_NOW }, context, EXAMPLE_NOW),
    token_created: tokenCreatedNotification(EXAMPLE_INTEGRATION, { ...token, id: 43, label: 'Servidor nuevo', tokenPrefix: 'tlk_81c0', createdAt: EXAMPLE_NOW }, EXAMPLE_PORTAL_PERSON, context, EXAMPLE_NOW),
    token_rotated: tokenRotatedNotification(
      EXAMPLE_INTEGRATION,
      { replaced: { ...token, expiresAt: new Date(EXAMPLE_NOW.getTime() + 24 * 3_600_000) }, token: { ...token, id: 42, tokenPrefix: 'tlk_c27d' } },
      EXAMPLE_PORTAL_PERSON,
      context,
      EXAMPLE_NOW,
    ),
    allow_list_changed: allowListChangedNotification(EXAMPLE_INTEGRATION, { allowedNetworks: ['203.0.113.7', '198.51.100.0/24'], changedAt: EXAMPLE_NOW }, { kind: 'service' }, context, EXAMPLE_NOW),
    tariff_changed: tariffChangedNotification(EXAMPLE_INTEGRATION, { previousCentavos: 150, tariffCentavos: 200, changedAt: EXAMPLE_NOW }, context, EXAMPLE_NOW),
    lookups_changed: lookupsChangedNotification(EXAMPLE_INTEGRATION, { enabled: ['Catálogo omisos'], disabled: ['RENAP por CUI'], changedAt: EXAMPLE_NOW }, context, EXAMPLE_NOW),
    source_unavailable: sourceNotification('source_unavailable', EXAMPLE_INTEGRATION, outage, context, EXAMPLE_NOW),
    source_recovered: sourceNotification('source_recovered', EXAMPLE_INTEGRATION, { ...outage, until: EXAMPLE_NOW }, context, EXAMPLE_NOW),
    top_up_approved: topUpApprovedNotification(EXAMPLE_INTEGRATION, topUp, 81_250, context, EXAMPLE_NOW),
    online_top_up_credited: onlineTopUpCreditedNotification(EXAMPLE_INTEGRATION, onlinePayment, 91_250, context, EXAMPLE_NOW),
    online_top_up_expired: onlineTopUpExpiredNotification(EXAMPLE_INTEGRATION, { ...onlinePayment, method: 'bank_transfer', providerPaymentId: 'pa_transferencia01' }, context, EXAMPLE_NOW),
    auto_top_up_paused: autoTopUpPausedNotification({ integration: EXAMPLE_INTEGRATION, chargeId: 41, reason: 'declined: Fondos insuficientes.', pausedAt: EXAMPLE_NOW }, context, EXAMPLE_NOW),
    invoice_awaiting_receptor: invoiceAwaitingReceptorNotification({ integration: EXAMPLE_INTEGRATION, ledgerEntryId: 5_120, amountCentavos: 300_000 }, context, EXAMPLE_NOW),
    top_up_rejected: topUpRejectedNotification(EXAMPLE_INTEGRATION, { ...topUp, id: 20, reference: '88123457', reason: 'El depósito no aparece en el estado de cuenta del banco.' }, context, EXAMPLE_NOW),
    bulk_job_finished: bulkJobFinishedNotification(EXAMPLE_INTEGRATION, lote, context, EXAMPLE_NOW),
    bulk_job_paused: bulkJobPausedNotification(
      EXAMPLE_INTEGRATION,
      { ...lote, state: 'en_pausa_sin_saldo', counts: { ...lote.counts, pending: 3_100, found: 1_850, notFound: 15, failed: 5 }, chargedCentavos: 1_850 * 150, finishedAt: null },
      EXAMPLE_NOW,
      100,
      context,
      EXAMPLE_NOW,
    ),
    watch_list_changes: watchListChangesNotification(
      EXAMPLE_INTEGRATION,
      { listPublicId: 'vig_5b2e91d04c7a3f18e6d2', listName: 'Proveedores', jobPublicId: 'lote_8d41c0a9f27b5e3c1a60', run: 4, counts: { omiso: 3, cobro_coactivo: 1, estado_rtu: 2 }, total: 6 },
      context,
      EXAMPLE_NOW,
    ),
    invoice_issued: invoiceIssuedNotification(
      EXAMPLE_INTEGRATION,
      {
        id: 318,
        documentType: 'FACT',
        serie: '7A3F01C2',
        numero: '2605471521',
        uuid: '7A3F01C2-9B44-4E21-8D10-5C6E7F809A1B',
        certifiedAt: EXAMPLE_NOW,
        taxableCentavos: 44_643,
        taxCentavos: 5_357,
        totalCentavos: 50_000,
      },
      context,
      EXAMPLE_NOW,
    ),
  };
  return Object.fromEntries(
    Object.entries(drafts).map(([kind, draft], index) => [kind, { ...draft!.payload, id: exampleId(index + 1) }]),
  ) as Record<NotificationKind, IntegratorNotification>;
}

function exampleId(n: number): string {
  return `ntf_6f1c2a9e-4b7d-4e58-9a30-${String(n).padStart(12, '0')}`;
}

/** Every event the webhook receives, in the order the documentation lists them. */
export function webhookEvents(settings: Pick<WebhookDocsSettings, 'serviceName' | 'repeatHours' | 'sourceOutageMinutes'>): WebhookEvent[] {
  const bodies = examples(settings.serviceName);
  const repeat = `Mientras dure, se repite como máximo una vez cada ${hours(settings.repeatHours)}.`;
  const when: Record<NotificationKind, string> = {
    balance_low: `El saldo bajó de su umbral de aviso (el de su integración, o el del servicio). ${repeat}`,
    balance_exhausted: `El saldo ya no cubre la tarifa de una consulta: los catálogos responden 402 hasta que se recargue. ${repeat}`,
    statement_issued: 'Se emitió el estado de cuenta del mes. El correo lleva el PDF; el webhook, sus cifras. Uno por estado de cuenta.',
    token_expiring: 'Un token con vencimiento deja de funcionar en 7 días, y de nuevo cuando falta 1 día (`datos.aviso`: `7d` o `1d`).',
    token_revoked: 'Un token fue revocado: ya no funciona. Uno por token.',
    token_created: 'Se creó un token, en el portal o por la administración del servicio (`datos.hecho_por`). Uno por token.',
    token_rotated: 'Se rotó un token: el nuevo, y hasta cuándo funciona el anterior (`datos.anterior_funciona_hasta`). Uno por rotación.',
    allow_list_changed: 'Cambió la lista de direcciones IP permitidas (`datos.direcciones`; vacía: cualquier dirección). Uno por cambio.',
    tariff_changed: 'La administración del servicio cambió la tarifa por consulta de catálogo: la anterior, la nueva y desde cuándo se cobra (`datos.aplica_desde`). Uno por cambio.',
    lookups_changed: 'La administración del servicio habilitó o deshabilitó consultas de su integración (`datos.habilitadas`, `datos.deshabilitadas`; vacía: ninguna). Uno por cambio.',
    top_up_approved: 'La administración aprobó un depósito que su integración reportó en el portal (Recargas): ya está en el saldo (`datos.saldo_centavos`). Uno por solicitud. Si acreditó otro monto que el reportado, `datos.monto_centavos` es el acreditado, `datos.monto_reportado_centavos` el reportado y `datos.nota` dice por qué.',
    online_top_up_credited: 'Un pago en línea (tarjeta o transferencia) desde el portal se acreditó al saldo (`datos.saldo_centavos`), con el identificador del pago (`datos.pago_id`) y el del proveedor (`datos.pago_proveedor_id`). Uno por pago.',
    online_top_up_expired: 'Un pago en línea no se completó a tiempo (una transferencia que no llegó en 24 horas) y no se acreditó. Uno por pago.',
    auto_top_up_paused:
      'El cargo de la recarga automática a la tarjeta guardada y su reintento fallaron (`datos.motivo`): la recarga automática queda en pausa hasta que el propietario la reactive o la desactive en el portal (Recargas, «Recarga automática»). También se envía por correo a los propietarios. Uno por pausa.',
    invoice_awaiting_receptor:
      'Se acreditó una recarga de Q 2,500.00 o más, pero su integración no tiene NIT (ni CUI) en sus datos de facturación y SAT no admite facturar ese monto a consumidor final: la factura queda pendiente y se emite sola en cuanto se registre (portal, Facturas, «Datos de facturación»). Uno por recarga; siempre se envía (no se puede desactivar).',
    top_up_rejected: 'La administración rechazó un depósito reportado en el portal, con su motivo (`datos.motivo`); puede reportarlo de nuevo, corregido. Uno por solicitud.',
    source_unavailable: `Una fuente que usan sus consultas lleva más de ${settings.sourceOutageMinutes} minutos sin responder. Uno por incidente.`,
    source_recovered: 'La fuente de un aviso `fuente_no_disponible` responde de nuevo. Uno por incidente.',
    bulk_job_finished:
      'Un lote terminó (`datos.estado`: `completado`, también con filas fallidas, o `cancelado`): sus conteos, lo cobrado (`datos.cobrado_centavos`) y la ruta de sus resultados (`datos.resultados`). No lleva ningún identificador de la lista. Uno por lote.',
    bulk_job_paused: 'Un lote se detuvo porque el saldo no cubre una consulta (`en_pausa_sin_saldo`); sigue solo cuando se acredite una recarga. Uno por pausa.',
    watch_list_changes:
      'Una ejecución de una vigilancia encontró cambios desde la anterior: cuántos de cada tipo (`datos.omiso`, `datos.cobro_coactivo`, `datos.estado_rtu`, `datos.registro`) y la ruta donde leer el antes y el después (`datos.cambios_url`). Sin cambios no hay aviso. No lleva ningún NIT. Uno por ejecución.',
    invoice_issued:
      'Se certificó ante SAT la factura electrónica (FEL) de una recarga acreditada: su serie, número (`datos.numero_dte`), número de autorización (`datos.uuid`), montos y dónde descargar su XML y su PDF en el portal (`datos.factura_url`). El correo al contacto de facturación lleva el PDF. Uno por factura.',
  };
  const kinds = Object.keys(KIND_TYPE) as NotificationKind[];
  return [
    ...kinds.map((kind) => ({ tipo: KIND_TYPE[kind], title: ALERT_CONDITION_LABELS[kind], when: when[kind], emailedTo: CONTACT_WORDS[KIND_CONTACT[kind]], example: bodies[kind] })),
    {
      tipo: TEST_TYPE,
      title: 'Aviso de prueba',
      when: 'Alguien pulsó «Enviar aviso de prueba»: un propietario en Notificaciones del portal o un administrador en la consola, para comprobar su receptor. Solo al webhook, cuando se pide.',
      emailedTo: null,
      example: { ...testNotification(EXAMPLE_INTEGRATION, settings, EXAMPLE_NOW), id: exampleId(kinds.length + 1) },
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

export const WEBHOOK_SAMPLE_LANGUAGES = [
  { key: 'curl', label: 'curl y openssl (firmar una prueba)' },
  { key: 'javascript', label: 'JavaScript (Node.js)' },
  { key: 'python', label: 'Python (biblioteca estándar)' },
  { key: 'csharp', label: 'C# (ASP.NET Core)' },
] as const;

export type WebhookSampleLanguage = (typeof WEBHOOK_SAMPLE_LANGUAGES)[number]['key'];

export interface WebhookSampleParameters {
  /** The curl sample's receiver, secret and body (the others read the secret from SECRETO_WEBHOOK). */
  url: string;
  secret: string;
  body: IntegratorNotification;
}

/**
 * Receivers that verify a notice as the steps say, in the languages of the request samples
 * (lib/surfaces/openapi/samples.ts): each listens on PORT (8080), takes the secret from SECRETO_WEBHOOK,
 * answers 401 to a bad signature or an old time, 204 otherwise, and handles each `id` once. The
 * curl one signs a notice as this service does and sends it, to test a receiver.
 * tests/examples/webhook-receivers.test.ts runs them against real deliveries.
 */
export function webhookSamples(parameters: WebhookSampleParameters): Record<WebhookSampleLanguage, string> {
  const body = JSON.stringify(parameters.body);
  return {
    curl: [
      `# Firme un aviso como lo firma este servicio y envíelo a su receptor para probarlo.`,
      `# Para comprobar un aviso recibido, ponga en FECHA su X-Alerta-Fecha y en CUERPO su cuerpo`,
      `# tal como llegó: la firma que se imprime debe ser igual a su X-Alerta-Firma.`,
      `SECRETO=${shellQuote(parameters.secret)}`,
      `URL=${shellQuote(parameters.url)}`,
      `FECHA="$(date +%s)"`,
      `CUERPO=${shellQuote(body)}`,
      `FIRMA="sha256=$(printf '%s.%s' "$FECHA" "$CUERPO" | openssl dgst -sha256 -hmac "$SECRETO" -r | cut -d' ' -f1)"`,
      `echo "X-Alerta-Firma: $FIRMA"`,
      `curl -sS -o /dev/null -w 'Su receptor respondió %{http_code}\\n' -X POST "$URL" \\`,
      `  -H 'content-type: application/json' \\`,
      `  -H ${shellQuote(`${ALERT_ID_HEADER}: ${parameters.body.id}`)} \\`,
      `  -H "${TIMESTAMP_HEADER}: $FECHA" \\`,
      `  -H "${SIGNATURE_HEADER}: $FIRMA" \\`,
      `  --data-raw "$CUERPO"`,
    ].join('\n'),
    javascript: [
      `// receptor.mjs: node receptor.mjs (Node.js 18 o posterior, sin dependencias)`,
      `import { createHmac, timingSafeEqual } from 'node:crypto';`,
      `import { createServer } from 'node:http';`,
      ``,
      `const SECRETO = process.env.SECRETO_WEBHOOK; // whsec_…: el secreto de firma de su integración`,
      `const TOLERANCIA_SEGUNDOS = ${SIGNATURE_TOLERANCE_SECONDS};`,
      `const procesados = new Set(); // en producción, guarde los id en su base de datos`,
      ``,
      `function firmaValida(cuerpo, fecha, firma) {`,
      `  const segundos = Number(fecha);`,
      `  if (!/^\\d+$/.test(fecha ?? '') || Math.abs(Date.now() / 1000 - segundos) > TOLERANCIA_SEGUNDOS) return false;`,
      `  const esperada = Buffer.from('sha256=' + createHmac('sha256', SECRETO).update(fecha + '.').update(cuerpo).digest('hex'));`,
      `  const recibida = Buffer.from(String(firma ?? ''));`,
      `  return esperada.length === recibida.length && timingSafeEqual(esperada, recibida);`,
      `}`,
      ``,
      `createServer((solicitud, respuesta) => {`,
      `  const partes = [];`,
      `  solicitud.on('data', (parte) => partes.push(parte));`,
      `  solicitud.on('end', () => {`,
      `    const cuerpo = Buffer.concat(partes); // los bytes tal como llegaron: la firma es de ellos`,
      `    if (!firmaValida(cuerpo, solicitud.headers['${TIMESTAMP_HEADER}'], solicitud.headers['${SIGNATURE_HEADER}'])) {`,
      `      respuesta.writeHead(401).end();`,
      `      return;`,
      `    }`,
      `    const aviso = JSON.parse(cuerpo.toString('utf8'));`,
      `    if (!procesados.has(aviso.id)) {`,
      `      procesados.add(aviso.id);`,
      `      console.log(aviso.tipo, aviso.titulo); // su trabajo, después de responder si es largo`,
      `    }`,
      `    respuesta.writeHead(204).end();`,
      `  });`,
      `}).listen(Number(process.env.PORT ?? 8080));`,
    ].join('\n'),
    python: [
      `# receptor.py: python3 receptor.py (Python 3.8 o posterior, solo la biblioteca estándar)`,
      `import hashlib`,
      `import hmac`,
      `import json`,
      `import os`,
      `import time`,
      `from http.server import BaseHTTPRequestHandler, HTTPServer`,
      ``,
      `SECRETO = os.environ["SECRETO_WEBHOOK"].encode("utf-8")  # whsec_…: el secreto de firma de su integración`,
      `TOLERANCIA_SEGUNDOS = ${SIGNATURE_TOLERANCE_SECONDS}`,
      `procesados = set()  # en producción, guarde los id en su base de datos`,
      ``,
      ``,
      `def firma_valida(cuerpo, fecha, firma):`,
      `    if not fecha or not fecha.isdigit() or abs(time.time() - int(fecha)) > TOLERANCIA_SEGUNDOS:`,
      `        return False`,
      `    esperada = "sha256=" + hmac.new(SECRETO, fecha.encode("ascii") + b"." + cuerpo, hashlib.sha256).hexdigest()`,
      `    return hmac.compare_digest(esperada.encode("ascii"), (firma or "").encode("utf-8"))`,
      ``,
      ``,
      `class Receptor(BaseHTTPRequestHandler):`,
      `    def do_POST(self):`,
      `        cuerpo = self.rfile.read(int(self.headers.get("content-length", "0")))  # los bytes tal como llegaron`,
      `        if not firma_valida(cuerpo, self.headers.get("${TIMESTAMP_HEADER}"), self.headers.get("${SIGNATURE_HEADER}")):`,
      `            self.send_response(401)`,
      `            self.end_headers()`,
      `            return`,
      `        aviso = json.loads(cuerpo)`,
      `        if aviso["id"] not in procesados:`,
      `            procesados.add(aviso["id"])`,
      `            print(aviso["tipo"], aviso["titulo"], flush=True)  # su trabajo, después de responder si es largo`,
      `        self.send_response(204)`,
      `        self.end_headers()`,
      ``,
      ``,
      `HTTPServer(("", int(os.environ.get("PORT", "8080"))), Receptor).serve_forever()`,
    ].join('\n'),
    csharp: [
      `// Program.cs de un proyecto "dotnet new web" (.NET 8): dotnet run`,
      `using System.Security.Cryptography;`,
      `using System.Text;`,
      `using System.Text.Json;`,
      ``,
      `var secreto = Encoding.UTF8.GetBytes(Environment.GetEnvironmentVariable("SECRETO_WEBHOOK")!); // whsec_…`,
      `const long ToleranciaSegundos = ${SIGNATURE_TOLERANCE_SECONDS};`,
      `var procesados = new HashSet<string>(); // en producción, guarde los id en su base de datos`,
      ``,
      `var app = WebApplication.Create(args);`,
      ``,
      `app.MapPost("/avisos", async (HttpRequest solicitud) =>`,
      `{`,
      `    using var memoria = new MemoryStream();`,
      `    await solicitud.Body.CopyToAsync(memoria);`,
      `    var cuerpo = memoria.ToArray(); // los bytes tal como llegaron: la firma es de ellos`,
      `    var fecha = solicitud.Headers["${TIMESTAMP_HEADER}"].ToString();`,
      `    var firma = solicitud.Headers["${SIGNATURE_HEADER}"].ToString();`,
      `    if (!long.TryParse(fecha, out var segundos) || Math.Abs(DateTimeOffset.UtcNow.ToUnixTimeSeconds() - segundos) > ToleranciaSegundos)`,
      `        return Results.Unauthorized();`,
      `    var firmado = Encoding.ASCII.GetBytes(fecha + ".").Concat(cuerpo).ToArray();`,
      `    var esperada = Encoding.ASCII.GetBytes("sha256=" + Convert.ToHexString(HMACSHA256.HashData(secreto, firmado)).ToLowerInvariant());`,
      `    if (!CryptographicOperations.FixedTimeEquals(esperada, Encoding.UTF8.GetBytes(firma)))`,
      `        return Results.Unauthorized();`,
      `    using var aviso = JsonDocument.Parse(cuerpo);`,
      `    var id = aviso.RootElement.GetProperty("id").GetString()!;`,
      `    lock (procesados)`,
      `    {`,
      `        if (procesados.Add(id))`,
      `            Console.WriteLine($"{aviso.RootElement.GetProperty("tipo").GetString()} {aviso.RootElement.GetProperty("titulo").GetString()}");`,
      `    }`,
      `    return Results.NoContent();`,
      `});`,
      ``,
      `app.Run($"http://0.0.0.0:{Environment.GetEnvironmentVariable("PORT") ?? "8080"}");`,
    ].join('\n'),
  };
}

/** The samples as the documentation shows them: placeholders for the receiver and the secret, the test notice as the body. */
export function documentedWebhookSamples(events: WebhookEvent[]): Record<WebhookSampleLanguage, string> {
  const body = events.find((event) => event.tipo === TEST_TYPE)!.example;
  return webhookSamples({ url: 'https://su-servidor.example/avisos', secret: 'whsec_…', body });
}

function shellQuote(text: string): string {
  return `'${text.replaceAll("'", "'\\''")}'`;
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
