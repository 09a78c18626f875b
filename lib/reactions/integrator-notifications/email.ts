import type { Mail } from '@/lib/platform/mail/smtp';
import { NOTIFICATIONS } from './kinds';
import type { IntegratorNotification } from './kinds/notice';
import type { NotificationRegistry } from './kinds/register';

// The e-mail of a notification: a short subject, the message first, then its facts one per line,
// no table and no image, so it reads on a phone as well as anywhere; the same in simple HTML.

const CONTACT_WORDS = { technical: 'contacto técnico', billing: 'contacto de facturación' } as const;

/** How the e-mails name the `datos` several kinds give; each kind names its own (its emailLabels). */
const SHARED_FACT_LABELS: Readonly<Record<string, string>> = {
  saldo_centavos: 'Saldo',
  tarifa_centavos: 'Tarifa por consulta',
  aplica_desde: 'Desde',
  token: 'Token',
  vence: 'Deja de funcionar',
  hecho_por: 'Hecho por',
  monto_centavos: 'Monto',
  medio: 'Medio de pago',
  motivo: 'Motivo',
  en_pausa_desde: 'En pausa desde',
};

function factValue(name: string, value: string | number): string {
  if (name.endsWith('_centavos') && typeof value === 'number') return `Q ${(value / 100).toLocaleString('es-GT', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
  if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(value)) {
    return new Date(value).toLocaleString('es-GT', { timeZone: 'America/Guatemala', dateStyle: 'long', timeStyle: 'short' });
  }
  return String(value);
}

function facts(notification: IntegratorNotification, registry: NotificationRegistry): Array<[string, string]> {
  const labels = { ...SHARED_FACT_LABELS, ...registry.findType(notification.tipo)?.emailLabels };
  return Object.entries(notification.datos).flatMap(([name, value]) =>
    // An empty fact (an emptied allow-list) is said by the message itself.
    value === null || value === '' || !labels[name] ? [] : [[labels[name]!, factValue(name, value)] as [string, string]],
  );
}

export function notificationMail(
  notification: IntegratorNotification,
  to: { email: string; name: string | null; contact: 'technical' | 'billing' },
  attachments: Mail['attachments'] = [],
  registry: NotificationRegistry = NOTIFICATIONS,
): Mail {
  const greeting = to.name ? `Hola, ${to.name}:` : 'Hola:';
  const lines = [`Integración: ${notification.integracion.nombre}`, ...facts(notification, registry).map(([label, value]) => `${label}: ${value}`)];
  const footer =
    `Recibe este aviso como ${CONTACT_WORDS[to.contact]} de la integración «${notification.integracion.nombre}» en ${notification.servicio}. ` +
    'Si no quiere recibir avisos de este tipo, pida a quien administra su integración que los desactive.';
  const text = [greeting, '', notification.mensaje, '', ...lines, '', '—', footer, `Aviso ${notification.id}`].join('\n');
  const html =
    `<div style="font-family:sans-serif;font-size:16px;line-height:1.5;max-width:560px">` +
    `<p>${escape(greeting)}</p><p>${escape(notification.mensaje)}</p>` +
    `<p>${lines.map(escape).join('<br>')}</p>` +
    `<p style="color:#555;font-size:13px">${escape(footer)}<br>Aviso ${escape(notification.id)}</p></div>`;
  return {
    to: [to.email],
    subject: `[${notification.servicio}] ${notification.titulo}`,
    text,
    html,
    headers: { 'X-Aviso-Id': notification.id },
    attachments,
  };
}

function escape(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}
