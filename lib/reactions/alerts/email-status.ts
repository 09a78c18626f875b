// What the console says when this service has no mail server (ALERT_SMTP_HOST unset): no e-mail
// leaves it, neither the administrators' alerts nor the integrators' notices.
// One module, for the pages, the notifier and the tests alike.

/** The reason recorded on an integrator's e-mail notice that was due and not sent. */
// Read by the integrator in the portal's log too: no setting's name (the console's notice names it).
export const EMAIL_NOT_CONFIGURED_REASON = 'correo no configurado en este servicio';

/** An integration's Notificaciones section. */
export const EMAIL_NOT_CONFIGURED_FOR_INTEGRATION =
  'El correo no está configurado en este servicio: no se envía ningún correo a los contactos de la integración. ' +
  'Los avisos que les tocaban aparecen en «Últimos avisos» como «No enviado: correo no configurado». ' +
  'Para enviarlos, quien opera el servicio debe configurar ALERT_SMTP_HOST y ALERT_EMAIL_FROM.';

/**
 * The portal's Notificaciones: the same fact, for the integrator (who cannot set the service's
 * settings and should not read their names), with what the integrator can do about it.
 */
export const EMAIL_NOT_CONFIGURED_FOR_PORTAL =
  'Este servicio todavía no envía correos: sus contactos no reciben los avisos por correo. ' +
  'Los que les tocaban aparecen en «Últimos avisos» como no enviados. ' +
  'Para recibirlos ahora, configure un webhook aquí abajo; para recibirlos por correo, pídalo a la administración del servicio.';

/** The Alertas page. */
export const EMAIL_NOT_CONFIGURED_FOR_ALERTS =
  'El correo no está configurado en este servicio: no se envía ningún correo, ni alertas a los administradores ni avisos a los contactos de las integraciones. ' +
  'Para enviarlos, quien opera el servicio debe configurar ALERT_SMTP_HOST y ALERT_EMAIL_FROM.';

/** Where an integration has no webhook, by whether e-mail is configured. */
export const NO_WEBHOOK = {
  withEmail: 'Sin webhook: los avisos llegan solo por correo a los contactos.',
  withoutEmail: 'Sin webhook, y el correo no está configurado en este servicio: esta integración no recibe ningún aviso.',
} as const;

/** Beside a contact's address when no e-mail can be sent. */
export const CONTACT_NOT_EMAILED = 'no recibe correos: el correo no está configurado en este servicio';
