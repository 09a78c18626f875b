import type { AlertChannel } from '@/db/schema';

// Why a delivery failed, said in Spanish for the console. An attempt records
// the technical text (lib/reactions/alerts/channels.ts: undici's and nodemailer's codes and messages, or our
// own "HTTP 500" and "sin respuesta en 5000 ms"); the console reads it here at display time, so
// rows written before this module existed are explained too, and shows the technical text folded
// under it. The server is named from the delivery's target: its host is never a secret.

export interface ExplainedDeliveryError {
  /** What happened, in Spanish, starting in lower case (it follows a label or a colon). */
  text: string;
  /** The text the attempt recorded, when it says more than `text` (shown under a detail). */
  technical?: string;
}

interface DeliveryContext {
  channel: AlertChannel;
  /** The delivery's target: a webhook's description or masked URL, or the e-mail's recipients. */
  target: string;
}

/** HTTP statuses a receiver answers, by name. */
const STATUS_NAMES: Record<number, string> = {
  400: 'solicitud no válida',
  403: 'acceso denegado',
  405: 'la ruta no acepta POST',
  408: 'tiempo de espera agotado',
  413: 'cuerpo demasiado grande',
  415: 'tipo de contenido no aceptado',
  429: 'demasiadas solicitudes',
  500: 'error interno del servidor',
  502: 'puerta de enlace incorrecta',
  503: 'servicio no disponible',
  504: 'la puerta de enlace no recibió respuesta a tiempo',
};

/** Our own reasons, already in Spanish (the notifier's and the outbox's). */
const OWN_SPANISH = /^(destino rechazado|la integración ya no|el correo|el servidor de correo|el canal|correo no configurado|aviso de prueba)/;

export function explainDeliveryError(error: string, context: DeliveryContext): ExplainedDeliveryError {
  const explained = context.channel === 'email' ? explainMail(error, context) : explainWebhook(error, hostOf(context.target));
  // A status alone ("HTTP 500") or our own words are all there is to know: nothing to fold.
  if (explained !== undefined) return explained === error || /^HTTP \d{3}$/.test(error) ? { text: explained } : { text: explained, technical: error };
  if (OWN_SPANISH.test(error)) return { text: error };
  return { text: 'no se pudo entregar: vea el detalle técnico', technical: error };
}

function explainWebhook(error: string, host: string | undefined): string | undefined {
  const server = host ? `el servidor ${host}` : 'el servidor';
  const status = /^HTTP (\d{3})$/.exec(error);
  if (status) return statusText(server, Number(status[1]));
  const timeout = /^sin respuesta en (\d+) ms$/.exec(error);
  if (timeout) return `${server} no respondió en ${seconds(Number(timeout[1]))}`;
  const refused = /EWEBHOOKTARGET: (.*)$/s.exec(error);
  if (refused) return refused[1]!.trim();
  if (/← bad port$/.test(error)) return 'el puerto de la URL no se puede usar (fetch no se conecta a él)';
  const code = errorCode(error);
  const name = host ?? hostInMessage(error) ?? 'el servidor';
  const certificate = `el certificado TLS (https) de ${name}`;
  switch (code) {
    case 'ENOTFOUND':
    case 'EAI_NONAME':
      return `no se encontró el servidor ${name}: revise el nombre en la URL`;
    case 'EAI_AGAIN':
      return `no se pudo averiguar la dirección de ${name} (falla temporal del DNS)`;
    case 'ECONNREFUSED':
      return `${server} rechazó la conexión`;
    case 'ECONNRESET':
    case 'EPIPE':
    case 'UND_ERR_SOCKET':
    case 'UND_ERR_CLOSED':
      return `${server} cortó la conexión antes de responder`;
    case 'UND_ERR_CONNECT_TIMEOUT':
    case 'ETIMEDOUT':
      return `no se pudo conectar con ${server} a tiempo`;
    case 'UND_ERR_HEADERS_TIMEOUT':
    case 'UND_ERR_BODY_TIMEOUT':
      return `${server} no respondió a tiempo`;
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return `no hay ruta de red hasta ${server}`;
    case 'CERT_HAS_EXPIRED':
      return `${certificate} está vencido`;
    case 'CERT_NOT_YET_VALID':
      return `${certificate} todavía no es válido`;
    case 'DEPTH_ZERO_SELF_SIGNED_CERT':
    case 'SELF_SIGNED_CERT_IN_CHAIN':
      return `${certificate} es autofirmado: debe ser de una autoridad reconocida`;
    case 'UNABLE_TO_VERIFY_LEAF_SIGNATURE':
    case 'UNABLE_TO_GET_ISSUER_CERT':
    case 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY':
      return `${certificate} no se pudo verificar: falta su cadena de certificados`;
    case 'ERR_TLS_CERT_ALTNAME_INVALID':
      return `${certificate} es de otro nombre`;
    case 'ERR_SSL_WRONG_VERSION_NUMBER':
    case 'EPROTO':
      return `${server} no habla https en ese puerto`;
    default:
      if (code && /^(ERR_SSL_|ERR_TLS_|CERT_)/.test(code)) return `falló la conexión segura (TLS) con ${server}`;
      return undefined;
  }
}

function statusText(server: string, status: number): string {
  if (status === 401) return `${server} respondió 401: rechazó la firma del aviso; compruebe que verifica con el secreto de firma vigente`;
  if (status === 404) return `${server} respondió 404: esa ruta no existe en el servidor`;
  if (status >= 300 && status < 400) return `${server} respondió ${status} (una redirección): los avisos no siguen redirecciones; configure la URL final`;
  const name = STATUS_NAMES[status];
  return name ? `${server} respondió ${status} (${name})` : `${server} respondió ${status}`;
}

function explainMail(error: string, context: DeliveryContext): string | undefined {
  const code = errorCode(error);
  const inner = /\b(ECONNREFUSED|ENOTFOUND|EAI_AGAIN|ETIMEDOUT|ECONNRESET)\b/.exec(error)?.[1];
  const host = hostInMessage(error);
  const server = host ? `el servidor de correo ${host}` : 'el servidor de correo';
  if (code === 'EAUTH') return 'el servidor de correo rechazó el usuario o la contraseña (ALERT_SMTP_USER, ALERT_SMTP_PASS)';
  if (code === 'EENVELOPE') return `el servidor de correo rechazó el destinatario ${context.target}`;
  if (inner === 'ENOTFOUND' || inner === 'EAI_AGAIN' || code === 'EDNS') return `no se encontró ${server}`;
  if (inner === 'ECONNREFUSED') return `${server} rechazó la conexión`;
  if (inner === 'ECONNRESET') return `${server} cortó la conexión`;
  if (inner === 'ETIMEDOUT' || code === 'ETIMEDOUT' || /timeout/i.test(error)) return `${server} no respondió a tiempo`;
  if (code && /^(ERR_SSL_|ERR_TLS_|CERT_|DEPTH_ZERO|SELF_SIGNED|UNABLE_TO)/.test(code)) return `falló la conexión segura (TLS) con ${server}`;
  return undefined;
}

/** The innermost code the attempt recorded ("fetch failed ← ENOTFOUND: …" gives ENOTFOUND). */
function errorCode(error: string): string | undefined {
  const codes = [...error.matchAll(/(?:^|← )([A-Z][A-Z0-9_]{2,}): /g)].map((match) => match[1]!);
  return codes.at(-1);
}

/** The host a Node.js message names ("getaddrinfo ENOTFOUND smtp.example.com", "connect ECONNREFUSED 127.0.0.1:2525"). */
function hostInMessage(error: string): string | undefined {
  return /\b(?:getaddrinfo|connect) [A-Z_]+ (\S+)/.exec(error)?.[1];
}

/** The host (and port) of a stored target, or undefined when it is not a URL. */
function hostOf(target: string): string | undefined {
  try {
    return new URL(target).host || undefined;
  } catch {
    return undefined;
  }
}

function seconds(ms: number): string {
  return `${(ms / 1000).toLocaleString('es-GT', { maximumFractionDigits: 1 })} s`;
}
