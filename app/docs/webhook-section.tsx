import { Fragment } from 'react';
import { CopyButton } from '@/components/console/copy-button';
import {
  documentedWebhookSamples,
  retryText,
  VERIFICATION_STEPS,
  WEBHOOK_BODY_FIELDS,
  WEBHOOK_HEADERS,
  WEBHOOK_SAMPLE_LANGUAGES,
  webhookEvents,
  type WebhookDocsSettings,
} from '@/lib/reactions/integrator-notifications/webhook-docs';

/** A sentence of the webhook documentation: `code` and **bold** as the Markdown guide writes them. */
function Inline({ text }: { text: string }) {
  return text.split(/(`[^`]+`|\*\*[^*]+\*\*)/).map((part, index) => {
    if (part.startsWith('`') && part.endsWith('`')) return <code key={index}>{part.slice(1, -1)}</code>;
    if (part.startsWith('**') && part.endsWith('**')) return <strong key={index}>{part.slice(2, -2)}</strong>;
    return <Fragment key={index}>{part}</Fragment>;
  });
}

/**
 * The integrator webhook (lib/reactions/integrator-notifications/webhook-docs.ts, the same data as
 * docs/integrators.md): every event with an example body, the headers, this deployment's retries
 * and how to verify the signature, with receivers in the languages of the request samples.
 */
export function WebhookSection({ settings }: { settings: WebhookDocsSettings }) {
  const events = webhookEvents(settings);
  const samples = documentedWebhookSamples(events);
  return (
    <section id="webhook" className="operation" aria-labelledby="webhook-title">
      <h2 id="webhook-title">Avisos por webhook</h2>
      <p>
        Además de los correos a sus contactos, el servicio puede avisar a <strong>su webhook</strong>: una URL <code>https://</code> pública que usted
        elige y que un propietario guarda en <strong>Notificaciones</strong> del portal, o un administrador en la consola. Al guardarla se muestra una
        sola vez el <strong>secreto de firma</strong> (<code>whsec_…</code>): guárdelo en su gestor de secretos. Cambiar la URL genera un secreto
        nuevo, y el anterior deja de valer de inmediato. Cada aviso es un <code>POST</code> con un cuerpo JSON firmado. El webhook recibe todos los
        eventos, salvo los que se desactiven en Notificaciones; desde ahí se le envía un aviso de prueba cuando se necesite, y se ven los últimos
        avisos con su estado. Si su URL necesita un token propio, póngalo en la consulta (<code>?token=…</code>): el portal y la consola la muestran
        con la consulta oculta.
      </p>
      <h3>Eventos</h3>
      <table data-testid="webhook-events">
          <thead>
            <tr>
              <th scope="col">
                <code>tipo</code>
              </th>
              <th scope="col">Cuándo</th>
              <th scope="col">También por correo a</th>
            </tr>
          </thead>
          <tbody>
            {events.map((event) => (
              <tr key={event.tipo}>
                <td>
                  <code>{event.tipo}</code>
                </td>
                <td>
                  <Inline text={event.when} />
                </td>
                <td>{event.emailedTo ?? 'nadie: solo el webhook'}</td>
              </tr>
            ))}
          </tbody>
      </table>
      <h3>El cuerpo</h3>
      <p>
        Todos los eventos tienen las mismas claves; cambian <code>tipo</code>, <code>titulo</code>, <code>mensaje</code> y <code>datos</code>.
      </p>
      <table>
        <thead>
          <tr>
            <th scope="col">Campo</th>
            <th scope="col">Qué es</th>
          </tr>
        </thead>
        <tbody>
          {WEBHOOK_BODY_FIELDS.map(([field, description]) => (
            <tr key={field}>
              <td>
                <code>{field}</code>
              </td>
              <td>
                <Inline text={description} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <p>Un ejemplo de cada evento, tal como lo arma el servicio:</p>
      <ul className="examples">
        {events.map((event) => (
          <li key={event.tipo}>
            <details className="example-body" data-event={event.tipo}>
              <summary>
                <code>{event.tipo}</code>: {event.title}
              </summary>
              {/* Focusable: a long line scrolls, and a keyboard must reach it (axe: scrollable-region-focusable). */}
              <pre tabIndex={0} role="region" aria-label={`Cuerpo de ejemplo de ${event.tipo}`}>
                {JSON.stringify(event.example, null, 2)}
              </pre>
            </details>
          </li>
        ))}
      </ul>
      <h3>Cabeceras</h3>
      <table>
        <thead>
          <tr>
            <th scope="col">Cabecera</th>
            <th scope="col">Ejemplo</th>
            <th scope="col">Qué es</th>
          </tr>
        </thead>
        <tbody>
          {WEBHOOK_HEADERS.map((header) => (
            <tr key={header.name}>
              <td>
                <code>{header.name}</code>
              </td>
              <td>
                <code>{header.value}</code>
              </td>
              <td>
                <Inline text={header.description} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <h3>Entrega y reintentos</h3>
      {retryText(settings).map((paragraph) => (
        <p key={paragraph} data-testid="webhook-retries">
          <Inline text={paragraph} />
        </p>
      ))}
      <h3>Verificar la firma</h3>
      <ol>
        {VERIFICATION_STEPS.map((step) => (
          <li key={step}>
            <Inline text={step} />
          </li>
        ))}
      </ol>
      <p>
        Receptores de ejemplo que hacen todo esto: escuchan en <code>PORT</code> (8080), leen el secreto de <code>SECRETO_WEBHOOK</code>, responden
        401 a una firma o una fecha que no valen y 204 a lo demás, y procesan cada <code>id</code> una vez. El de curl firma un aviso como este
        servicio y lo envía, para probar su receptor (o comprobar a mano la firma de uno recibido).
      </p>
      {WEBHOOK_SAMPLE_LANGUAGES.map(({ key, label }) => (
        <details key={key} className="sample" data-language={key}>
          <summary>{label}</summary>
          <pre tabIndex={0} role="region" aria-label={`Ejemplo en ${label}`}>
            {samples[key]}
          </pre>
          <CopyButton text={samples[key]} label={`Copiar ejemplo en ${label}`} failedHint="No se pudo copiar: seleccione el texto y cópielo a mano." />
        </details>
      ))}
    </section>
  );
}
