import { DepositAccounts } from '@/components/top-ups/deposit-accounts';
import type { PortalRole } from '@/db/schema';
import type { TopUpBankAccount } from '@/lib/flows/top-ups/settings';
import { CATALOG_MESSAGES } from '@/lib/contract/messages';
import { INVITATION_VALID_HOURS, PASSWORD_RESET_VALID_MINUTES } from '@/lib/flows/portal-identity/links';
import { PORTAL_ROLE_LABELS, PORTAL_ROLES } from '@/lib/flows/portal-identity/roles';
import { RECOVERY_CODE_COUNT } from '@/lib/flows/two-factor/recovery-codes';
import { PORTAL_GUIDE_PAGES, PORTAL_GUIDE_SESSION_HOURS, PORTAL_GUIDE_TWO_FACTOR_REQUIRED } from './portal-guide';

function duration(minutes: number): string {
  if (minutes % 60 !== 0) return `${minutes} minutos`;
  return minutes === 60 ? 'una hora' : `${minutes / 60} horas`;
}

/**
 * The integrators' portal for integrators (docs/integrators.md, section
 * 9, says the same): how they get in, what each role may do, the second factor and sessions, the
 * sandbox, and where a 402's "Recarga" leads. `sandbox`: this deployment is the development one;
 * `depositAccounts`: its TOP_UP_BANK_ACCOUNTS, where to deposit for a top-up.
 */
export function PortalSection({
  sandbox,
  depositAccounts,
  supportEmail,
  paysOnline,
}: {
  sandbox: boolean;
  depositAccounts: readonly TopUpBankAccount[];
  supportEmail: string | null;
  /** Whether this deployment takes online payments: then the guide explains paying online and automatic top-up. */
  paysOnline: boolean;
}) {
  const cell = (role: PortalRole, roles: readonly PortalRole[], yes: string, no: string) => (
    <td key={role} data-label={PORTAL_ROLE_LABELS[role]} data-role={role}>
      {roles.includes(role) ? yes : no}
    </td>
  );
  return (
    <section id="portal" className="operation" aria-labelledby="portal-title">
      <h2 id="portal-title">Portal de integradores</h2>
      <p>
        En <a href="/portal">/portal</a> de cada ambiente, las personas de su organización ven su integración sin escribirle a nadie: el saldo, el
        uso, las consultas, los movimientos, los estados de cuenta y las credenciales. Son cuentas de personas, en español; la API sigue usando
        solo las credenciales de la integración. Los tokens son de la integración, no de una persona: quitar a alguien del equipo cierra sus
        sesiones y deja los tokens funcionando.
      </p>

      <h3>Cómo entrar</h3>
      <ol>
        <li>Pida al administrador del servicio una invitación para el primer propietario de su integración, con el correo de esa persona.</li>
        <li>
          La invitación llega por correo: un enlace de un solo uso que vale {INVITATION_VALID_HOURS} horas. Al abrirlo, la persona elige su
          contraseña (al menos 12 caracteres, ni una de las más comunes ni una fácil de adivinar con su correo o su nombre, ni el nombre del
          servicio o una fecha con cifras y símbolos). Si el enlace venció, pida otro.
        </li>
        <li>
          El propietario invita a las demás personas desde <strong>Equipo</strong>, cada una con su rol, y ahí mismo reenvía o cancela
          invitaciones, cambia roles y quita personas. La integración conserva siempre al menos un propietario.
        </li>
      </ol>
      <p>
        Cada cuenta pertenece a una sola integración y cada correo es una sola cuenta: quien trabaje para dos integradores usa dos direcciones.
        «¿Olvidó su contraseña?», en la página de ingreso, envía un enlace de un solo uso que vale {duration(PASSWORD_RESET_VALID_MINUTES)}.
      </p>

      <h3 id="portal-roles-title">Qué puede hacer cada rol</h3>
      <table className="portal-roles" data-testid="portal-roles" aria-labelledby="portal-roles-title">
        <thead>
          <tr>
            <th scope="col">Página</th>
            {PORTAL_ROLES.map((role) => (
              <th scope="col" key={role}>
                {PORTAL_ROLE_LABELS[role]}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {PORTAL_GUIDE_PAGES.map((row) => (
            <tr key={row.page} data-page={row.page}>
              <th scope="row">
                <strong>{row.page}</strong>: {row.what}
              </th>
              {PORTAL_ROLES.map((role) => cell(role, row.roles, 'Sí', 'No'))}
            </tr>
          ))}
          <tr data-page="Verificación en dos pasos en producción">
            <th scope="row">
              <strong>Verificación en dos pasos en producción</strong>
            </th>
            {PORTAL_ROLES.map((role) => cell(role, PORTAL_GUIDE_TWO_FACTOR_REQUIRED, 'Obligatoria', 'Opcional'))}
          </tr>
        </tbody>
      </table>
      <p className="muted">
        Cada página muestra solo lo de su integración, y el menú de cada rol enlaza solo las páginas que ese rol puede abrir.
      </p>

      <h3>Verificación en dos pasos y sesiones</h3>
      <ul>
        <li>
          En producción, propietarios y desarrolladores activan la verificación en dos pasos antes de usar el portal: después de la contraseña, el
          código de 6 dígitos de una aplicación de autenticación (TOTP), y {RECOVERY_CODE_COUNT} códigos de recuperación de un solo uso por si
          pierden el teléfono. Facturación puede activarla en <strong>Mi cuenta</strong>. En el sandbox es opcional para todos.
        </li>
        <li>
          Una sesión dura {PORTAL_GUIDE_SESSION_HOURS} horas desde el ingreso. En <strong>Mi cuenta</strong>, «Sesiones activas» muestra cada
          navegador con su dirección IP y su última actividad, y cierra cualquiera; cambiar la contraseña las cierra todas.
        </li>
        <li>
          Si alguien pierde el teléfono y sus códigos de recuperación, un propietario puede quitarlo del equipo e invitarlo de nuevo; si es el único
          propietario, pida al administrador del servicio que restablezca su verificación.
        </li>
        <li>Cada ingreso y cada intento fallido queda en la auditoría del servicio, y los intentos repetidos se frenan como en la consola del servicio.</li>
      </ul>

      <h3 id="portal-sandbox">Sandbox: el portal del ambiente de desarrollo</h3>
      <p>
        El portal del ambiente de desarrollo es su <strong>sandbox</strong>: sus consultas van al simulador de las fuentes, con datos ficticios, y
        nada de lo que haga allí afecta a producción. Cada página de ese portal lo dice en un aviso, «Entorno de pruebas (sandbox)». Sus cuentas,
        credenciales y saldo son los del ambiente de desarrollo, distintos de los de producción.
      </p>
      <p>
        Para tener acceso, pida al administrador del servicio su integración en el ambiente de desarrollo (sus credenciales para la API) y una
        invitación para su primer propietario en el portal de ese ambiente; desde ahí, ese propietario invita al resto, como en producción.
      </p>
      <p data-testid="portal-environment">
        {sandbox ? (
          <>
            Este es el ambiente de desarrollo: su portal, <a href="/portal">/portal</a>, es el sandbox.
          </>
        ) : (
          <>
            Este es el ambiente de producción: su portal, <a href="/portal">/portal</a>, trabaja con las fuentes reales; el sandbox es el portal del
            ambiente de desarrollo.
          </>
        )}
      </p>

      <h3 id="portal-saldo">Sin saldo (402): dónde ver el saldo y cómo recargar</h3>
      <p>
        Un 402 <code>{CATALOG_MESSAGES.balanceExhausted}</code> significa que el saldo de su integración no cubre la tarifa: la consulta no se
        ejecutó ni se cobró. Ninguna consulta de la API lee ni recarga el saldo. Véalo en el portal, en <strong>Inicio</strong>, y lo que lo
        movió en <strong>Movimientos</strong> (recargas, ajustes y consultas cobradas); todos los roles ven el saldo en Inicio. Para recargar, un
        propietario o facturación {paysOnline ? 'paga en línea (abajo) o ' : ''}
        deposita en una de las cuentas del servicio (abajo) y reporta el depósito en <strong>Recargas</strong>. El otro
        402, <code>{CATALOG_MESSAGES.sourceBalanceExhausted}</code>, no depende de su saldo: escriba a soporte.
      </p>

      <h3 id="portal-depositar">Dónde depositar para recargar</h3>
      <p>
        Deposite o transfiera a una de estas cuentas del servicio y luego reporte el depósito en <strong>Recargas</strong> del portal, con el número de
        referencia de la boleta: al aprobarlo, la administración lo suma a su saldo. Las cuentas son las de este ambiente.
      </p>
      <DepositAccounts accounts={depositAccounts} login={null} supportEmail={supportEmail} />

      {paysOnline && (
        <>
          <h3 id="portal-pagar-en-linea">Pagar en línea y recarga automática</h3>
          <p>
            En <strong>Recargas</strong>, un propietario o facturación paga con tarjeta o transferencia bancaria en la página del proveedor de pagos:
            antes de pagar ve la comisión y el total, y el saldo se acredita en cuanto el proveedor confirma el pago (una transferencia, en hasta 24
            horas), sin reportar nada. Un pago que no completó puede cancelarlo desde su página; nada se cobra. Un propietario puede activar la{' '}
            <strong>recarga automática</strong>: con una tarjeta ya usada en un pago en línea, el saldo se recarga solo cuando baja del umbral que elija,
            hasta un máximo de veces por día. Un pago de Q 2,500.00 o más necesita antes el NIT o el CUI en los datos de facturación (abajo).
          </p>
        </>
      )}

      <h3 id="portal-facturas">Sus facturas (FEL)</h3>
      <p>
        Cada recarga acreditada se factura con una factura electrónica (FEL) certificada ante SAT, a nombre del receptor de los{' '}
        <strong>Datos de facturación</strong> de su integración (en <strong>Facturas</strong> del portal: su NIT con el nombre que SAT tiene, o un
        CUI); sin receptor, a consumidor final, que SAT admite solo hasta Q 2,499.99: una recarga mayor se acredita igual y su factura queda
        pendiente hasta que registre el NIT. En Facturas están el XML certificado, el PDF y sus anulaciones o notas de crédito; su sistema las lee con{' '}
        <code>GET /cuenta/facturas</code> (sección «Su cuenta»), y cada recarga de <code>GET /cuenta/movimientos</code> dice cuál es su factura.
      </p>
    </section>
  );
}
