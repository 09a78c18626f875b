import { DEFAULT_SESSION_MAX_HOURS } from '@/lib/flows/auth/session-settings';
import type { PortalRole } from '@/db/schema';

// The integrators' portal as /docs explains it. The roles of each row
// are written here by hand, not read from lib/flows/portal-identity/roles.ts: the docs say what a role may do,
// and tests/examples/portal-docs.test.ts (and e2e/docs.spec.ts on the rendered page) hold them to
// the code, so a role changed in the code without its documentation fails there.

export interface PortalGuidePage {
  /** The page's name in the portal's navigation. */
  page: string;
  /** What it holds, in a sentence ("usted", as the rest of /docs). */
  what: string;
  roles: readonly PortalRole[];
}

const EVERYONE: readonly PortalRole[] = ['propietario', 'desarrollador', 'facturacion'];

export const PORTAL_GUIDE_PAGES: readonly PortalGuidePage[] = [
  {
    page: 'Inicio',
    what: 'el saldo (todos los roles, solo lectura), cuántas consultas de catálogo cubre y el umbral de aviso de saldo bajo, con un aviso cuando el saldo baja del umbral o ya no cubre una consulta; lo gastado este mes y el anterior y la tarifa (propietario y facturación, con el enlace a Recargas); el uso por día y por consulta de los últimos 30 días y el uso de hoy frente a cada límite por minuto (propietario y desarrollador); el estado de las fuentes; y al propietario, un aviso si faltan los correos de contacto',
    roles: EVERYONE,
  },
  {
    page: 'Consultas',
    what: 'los registros de consultas de su integración (hora de Guatemala, consulta, estado, monto cobrado, tiempo de respuesta, x-request-id), buscados por x-request-id o por NIT o CUI, con los identificadores enmascarados (ver uno completo queda registrado) y exportación CSV de un rango',
    roles: ['propietario', 'desarrollador'],
  },
  {
    page: 'Movimientos',
    what: 'recargas, ajustes (con su nota) y consultas cobradas, con el saldo que dejó cada uno',
    roles: ['propietario', 'facturacion'],
  },
  {
    page: 'Estados de cuenta',
    what: 'cada estado de cuenta mensual emitido, en PDF y el CSV de sus consultas cobradas (NIT y CUI enmascarados); y la vista previa del mes en curso, en página y PDF, marcada como vista previa (sin número, no es un estado de cuenta emitido)',
    roles: ['propietario', 'facturacion'],
  },
  {
    page: 'Facturas',
    what: 'la factura electrónica (FEL) de cada recarga acreditada, la más reciente primero (estado, serie y número, total, fecha); en cada una su número de autorización, el enlace para verificarla en SAT y la descarga del XML certificado y del PDF; una anulada o con nota de crédito lo dice, con los números de la nota y la descarga de su XML',
    roles: ['propietario', 'facturacion'],
  },
  {
    page: 'Recargas',
    what: 'reportar un depósito o transferencia (banco, número de referencia, fecha, monto y, si quiere, la boleta en imagen o PDF de hasta 5 MB) y seguir su estado; el saldo cambia cuando la administración la aprueba, y una misma referencia de un banco se acredita una sola vez (se comparan sus letras y números: «DUP-777» y «dup 777» son la misma); la fecha del depósito, de los últimos 90 días salvo que el servicio fije otro plazo (el formulario lo indica); mientras esté pendiente, quien lo reportó (o un propietario) puede cancelarlo; si la administración acredita otro monto que el reportado, se ven los dos y su nota; donde hay pagos en línea, pagar en línea y, solo el propietario, la recarga automática con una tarjeta guardada',
    roles: ['propietario', 'facturacion'],
  },
  {
    page: 'Lotes',
    what: 'los lotes de la integración (estado, avance, encontrados, apartados, fallidos, monto cobrado, fin estimado); propietarios y desarrolladores suben un CSV de hasta 10,000 NIT o CUI, ven antes de confirmar cuántos correrán, cuántos se apartan y el costo máximo, cancelan un lote y descargan sus resultados (con motivo, queda registrado); facturación solo ve los lotes y sus montos',
    roles: ['propietario', 'desarrollador', 'facturacion'],
  },
  {
    page: 'Vigilancia',
    what: 'las listas de NIT vigiladas (catálogo, frecuencia, cuántos NIT, estado, última ejecución con sus cambios, próxima ejecución); propietarios y desarrolladores crean una desde un CSV de hasta 10,000 NIT (ven antes de confirmar cuántos se vigilan, cuántos se apartan y el costo máximo de cada ejecución), la pausan, la reanudan y la eliminan; en cada lista, sus ejecuciones (cada una un lote) y sus cambios con el NIT enmascarado («Omiso: no → sí»), que propietarios y desarrolladores muestran con su nombre o descargan en CSV (con motivo, queda registrado); facturación solo lee',
    roles: ['propietario', 'desarrollador', 'facturacion'],
  },
  {
    page: 'Credenciales',
    what: 'los tokens por nombre y prefijo (estado, creación, último uso, vencimiento) y las direcciones IP permitidas; crear un token (visible una sola vez), rotarlo con superposición y revocarlo; editar las direcciones permitidas (con una pregunta si la lista deja fuera la dirección desde la que usted está conectado)',
    roles: ['propietario', 'desarrollador'],
  },
  {
    page: 'Notificaciones',
    what: 'los correos de los contactos técnico y de facturación; el webhook (solo https:// a una dirección pública; el secreto de firma se muestra una sola vez) y un aviso de prueba; qué avisos recibe cada destinatario; los últimos avisos con su estado, intentos, último error y su cuerpo en JSON, y «Reenviar» un aviso al webhook con el mismo id',
    roles: ['propietario'],
  },
  {
    page: 'Equipo',
    what: 'invitar personas, reenviar o cancelar invitaciones, cambiar roles y quitar personas',
    roles: ['propietario'],
  },
  {
    page: 'Actividad',
    what: 'quién hizo qué y cuándo en la integración: tokens creados, rotados o revocados, identificadores mostrados (qué consulta, nunca el NIT), resultados descargados, cambios del equipo y de la configuración; la administración del servicio aparece como «Administración»',
    roles: ['propietario'],
  },
  {
    page: 'Mi cuenta',
    what: 'la propia contraseña, la verificación en dos pasos y las sesiones activas (cerrar cualquiera)',
    roles: EVERYONE,
  },
];

/** Who must enrol in two-factor sign-in in production; the others may (lib/flows/portal-identity/policy.ts). */
export const PORTAL_GUIDE_TWO_FACTOR_REQUIRED: readonly PortalRole[] = ['propietario', 'desarrollador'];

/** How long a portal session lasts from its sign-in unless the operator shortens it (SESSION_MAX_HOURS, both realms'). */
export const PORTAL_GUIDE_SESSION_HOURS = DEFAULT_SESSION_MAX_HOURS;
