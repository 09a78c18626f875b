// Why a notice or an alert was not delivered, in Spanish (issue 32, point 3): the console reads
// the error each attempt recorded (lib/reactions/alerts/channels.ts: undici's and nodemailer's codes and
// messages, our own HTTP and time-out phrases) and names the server from the delivery's target.
// The texts below are the ones Node.js 24 and undici really produced against local servers
// (closed ports, a hanging server, a self-signed certificate, plain HTTP spoken to https://).
import { describe, expect, it } from 'vitest';
import { explainDeliveryError } from './delivery-errors';

const webhook = (error: string, target = 'https://hooks.example.com/pasarela?••••') => explainDeliveryError(error, { channel: 'webhook', target });
const email = (error: string) => explainDeliveryError(error, { channel: 'email', target: 'pagos@acme.gt' });

describe('a webhook delivery that failed', () => {
  it.each([
    ['fetch failed ← ENOTFOUND: getaddrinfo ENOTFOUND hooks.example.com', 'no se encontró el servidor hooks.example.com: revise el nombre en la URL'],
    ['fetch failed ← EAI_AGAIN: getaddrinfo EAI_AGAIN hooks.example.com', 'no se pudo averiguar la dirección de hooks.example.com (falla temporal del DNS)'],
    ['fetch failed ← ECONNREFUSED: connect ECONNREFUSED 93.184.216.34:443', 'el servidor hooks.example.com rechazó la conexión'],
    ['fetch failed ← UND_ERR_SOCKET: other side closed', 'el servidor hooks.example.com cortó la conexión antes de responder'],
    ['fetch failed ← ECONNRESET: read ECONNRESET', 'el servidor hooks.example.com cortó la conexión antes de responder'],
    ['sin respuesta en 5000 ms', 'el servidor hooks.example.com no respondió en 5 s'],
    ['fetch failed ← UND_ERR_CONNECT_TIMEOUT: Connect Timeout Error (attempted address: hooks.example.com:443, timeout: 10000ms)', 'no se pudo conectar con el servidor hooks.example.com a tiempo'],
    ['fetch failed ← EHOSTUNREACH: connect EHOSTUNREACH 93.184.216.34:443', 'no hay ruta de red hasta el servidor hooks.example.com'],
    ['fetch failed ← CERT_HAS_EXPIRED: certificate has expired', 'el certificado TLS (https) de hooks.example.com está vencido'],
    [
      'fetch failed ← DEPTH_ZERO_SELF_SIGNED_CERT: self-signed certificate; if the root CA is installed locally, try running Node.js with --use-system-ca',
      'el certificado TLS (https) de hooks.example.com es autofirmado: debe ser de una autoridad reconocida',
    ],
    ['fetch failed ← UNABLE_TO_VERIFY_LEAF_SIGNATURE: unable to verify the first certificate', 'el certificado TLS (https) de hooks.example.com no se pudo verificar: falta su cadena de certificados'],
    ["fetch failed ← ERR_TLS_CERT_ALTNAME_INVALID: Hostname/IP does not match certificate's altnames: Host: hooks.example.com. is not in the cert's altnames: DNS:otro.example", 'el certificado TLS (https) de hooks.example.com es de otro nombre'],
    [
      'fetch failed ← ERR_SSL_WRONG_VERSION_NUMBER: 401DA895637F0000:error:0A00010B:SSL routines:tls_validate_record_header:wrong version number:../deps/openssl/openssl/ssl/record/methods/tlsany_meth.c:77:\n',
      'el servidor hooks.example.com no habla https en ese puerto',
    ],
    ['fetch failed ← ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE: sslv3 alert handshake failure', 'falló la conexión segura (TLS) con el servidor hooks.example.com'],
  ])('%s', (raw, spanish) => {
    expect(webhook(raw)).toEqual({ text: spanish, technical: raw });
  });

  it('by HTTP status: what the receiver answered, and a rejected signature says which secret to use', () => {
    expect(webhook('HTTP 500').text).toBe('el servidor hooks.example.com respondió 500 (error interno del servidor)');
    expect(webhook('HTTP 503').text).toBe('el servidor hooks.example.com respondió 503 (servicio no disponible)');
    expect(webhook('HTTP 401').text).toBe('el servidor hooks.example.com respondió 401: rechazó la firma del aviso; compruebe que verifica con el secreto de firma vigente');
    expect(webhook('HTTP 404').text).toBe('el servidor hooks.example.com respondió 404: esa ruta no existe en el servidor');
    expect(webhook('HTTP 301').text).toBe('el servidor hooks.example.com respondió 301 (una redirección): los avisos no siguen redirecciones; configure la URL final');
    expect(webhook('HTTP 429').text).toBe('el servidor hooks.example.com respondió 429 (demasiadas solicitudes)');
    expect(webhook('HTTP 418').text).toBe('el servidor hooks.example.com respondió 418');
    // A status alone is already what happened: no technical detail to fold.
    expect(webhook('HTTP 500').technical).toBeUndefined();
  });

  it('names the host with its port, from the target as stored (a description or a masked URL)', () => {
    expect(webhook('HTTP 500', 'https://hooks.example.com:8443/services/…').text).toBe('el servidor hooks.example.com:8443 respondió 500 (error interno del servidor)');
    expect(webhook('fetch failed ← ENOTFOUND: getaddrinfo ENOTFOUND hooks.pasarela.invalid', 'https://hooks.pasarela.invalid/avisos?••••').text).toBe(
      'no se encontró el servidor hooks.pasarela.invalid: revise el nombre en la URL',
    );
  });

  it('keeps our own Spanish reasons, with the refused address', () => {
    expect(webhook('fetch failed ← EWEBHOOKTARGET: destino rechazado: la dirección 127.0.0.1 es privada, local o reservada')).toEqual({
      text: 'destino rechazado: la dirección 127.0.0.1 es privada, local o reservada',
      technical: 'fetch failed ← EWEBHOOKTARGET: destino rechazado: la dirección 127.0.0.1 es privada, local o reservada',
    });
    expect(webhook('destino rechazado: debe empezar con https://')).toEqual({ text: 'destino rechazado: debe empezar con https://' });
    expect(webhook('la integración ya no tiene webhook')).toEqual({ text: 'la integración ya no tiene webhook' });
    expect(webhook('fetch failed ← bad port').text).toBe('el puerto de la URL no se puede usar (fetch no se conecta a él)');
  });

  it('says it failed without guessing when the error is one it does not know, the text under the detail', () => {
    expect(webhook('fetch failed ← UND_ERR_SOMETHING_NEW: surprise')).toEqual({ text: 'no se pudo entregar: vea el detalle técnico', technical: 'fetch failed ← UND_ERR_SOMETHING_NEW: surprise' });
  });
});

describe('an e-mail delivery that failed', () => {
  it.each([
    ['EDNS: getaddrinfo ENOTFOUND smtp.example.com', 'no se encontró el servidor de correo smtp.example.com'],
    ['ESOCKET: connect ECONNREFUSED 127.0.0.1:2525', 'el servidor de correo 127.0.0.1:2525 rechazó la conexión'],
    ['ETIMEDOUT: Connection timeout', 'el servidor de correo no respondió a tiempo'],
    ['EAUTH: Invalid login: 535 5.7.8 Authentication failed', 'el servidor de correo rechazó el usuario o la contraseña (ALERT_SMTP_USER, ALERT_SMTP_PASS)'],
    ["EENVELOPE: Can't send mail - all recipients were rejected: 550 5.1.1 <pagos@acme.gt>: Recipient address rejected", 'el servidor de correo rechazó el destinatario pagos@acme.gt'],
  ])('%s', (raw, spanish) => {
    expect(email(raw)).toEqual({ text: spanish, technical: raw });
  });

  it('an e-mail not sent because this service has no mail server says so', () => {
    expect(email('el correo (ALERT_SMTP_HOST) ya no está configurado en esta instancia')).toEqual({ text: 'el correo (ALERT_SMTP_HOST) ya no está configurado en esta instancia' });
  });
});
