// The CLI's help, in Spanish as the console is (its operators are Guatemalan). Command names and
// option flags stay in English: scripts and the documentation call them by these names.
export const USAGE = `CLI de operación: npm run cli -- <comando> [argumentos] [--json]

Los montos se escriben en quetzales ("12.50", "1,000", "Q 5"), como en la consola; se guardan en centavos.
Consultas que se habilitan (--enable, --disable): is_renap_enabled is_rtu_enabled is_cui_nit_enabled
is_rtu_v2_enabled is_omisos_enabled (o "all", todas).
Las fechas y horas del texto son de Guatemala, como en la consola (24/11/2026 04:02:09); con --json, la respuesta
es JSON y sus fechas, UTC (ISO 8601). Las consultas y los movimientos se escriben con el nombre de la consola
("Catálogo CUI/NIT", recarga) o con el interno (cui_nit, top_up), en mayúsculas o minúsculas.

  integrations:create <nombre> [--tariff Q] [--balance Q] [--enable consulta,consulta|all]
                                        crea una integración; muestra su token una sola vez
  integrations:list                     las integraciones, con sus consultas habilitadas, tarifa y saldo
  integrations:show <id|nombre>         una integración y sus últimos movimientos de saldo
  integrations:history <id|nombre> [--kind recarga|ajuste|"consulta cobrada"] [--since AAAA-MM-DD] [--until AAAA-MM-DD] [--limit N]
                                        movimientos de saldo, el más reciente primero, cada uno con el saldo que dejó
  statements:create <id|nombre> <AAAA-MM> [--out DIRECTORIO]
                                        emite el estado de cuenta del mes (o lo encuentra, si ya se emitió); con --out
                                        escribe allí su PDF y el CSV de sus consultas cobradas
  ledger:verify [--integration id|nombre]
                                        concilia saldos, libro mayor y registros (y las cuentas de abajo); con
                                        diferencias, las lista y termina con el código 1
  invoices:list [--integration id|nombre] [--estado awaiting_receptor|pending|indeterminate|certified|to_correct] [--limit N]
                                        las facturas, la más reciente primero, con su estado, sus números, su
                                        receptor y sus anulaciones o notas de crédito
  invoices:show <número>                una factura y sus documentos
  invoices:correct <número> --motivo "..."
                                        «Corregir receptor»: la anula (o emite su nota de crédito, pasado el plazo)
                                        y emite otra por la misma recarga al receptor que la integración tiene hoy;
                                        el saldo no cambia
  books:verify [--integration id|nombre] [--mes AAAA-MM]
                                        las cuentas por mes: recargas, facturas, anulaciones y notas de crédito;
                                        si un pago no se acreditó, una recarga no tiene factura ni motivo o un
                                        reembolso no tiene nota de crédito, lo lista y termina con el código 1
  integrations:flags <id|nombre> [--enable consulta,...] [--disable consulta,...]
                                        habilita o deshabilita consultas
  integrations:tariff <id|nombre> <Q>   fija la tarifa por consulta de catálogo
  integrations:top-up <id|nombre> <Q> --note "..."
                                        recarga saldo (la nota dice de dónde vino el dinero)
  integrations:adjust <id|nombre> <+Q|-Q> --note "..."
                                        suma (+10.00) al saldo o le resta (-5.00)
  top-ups:list [--integration id|nombre]
                                        depósitos reportados en el portal pendientes de revisión (con
                                        --integration, todos los de esa integración y su estado)
  top-ups:duplicates                    las solicitudes de recarga que comparten banco y referencia (comparadas
                                        por sus letras y números), reportadas antes de que se compararan así;
                                        si hay alguna, las lista por grupo y termina con el código 1
  top-ups:approve <solicitud>           acredita el depósito reportado (una sola vez, con el banco y la
                                        referencia en la nota del movimiento)
  top-ups:reject <solicitud> --motivo "..."
                                        lo rechaza con un motivo que la integración lee; no mueve saldo
  integrations:tokens <id|nombre>       sus tokens: nombre, estado, creación, último uso (hasta un minuto de
                                        atraso) y vencimiento
  integrations:token-create <id|nombre> --label "..." [--expires AAAA-MM-DDTHH:MM:SSZ]
                                        un token más (se muestra una sola vez) junto a los demás
  integrations:rotate-token <id|nombre> [--token ID] [--overlap none|1h|24h|7d]
                                        reemplaza un token (si no se indica, el activo más reciente) por uno
                                        nuevo, que se muestra una sola vez; el anterior sigue funcionando
                                        durante la superposición (none: deja de funcionar de inmediato)
  integrations:token-revoke <id|nombre> <id del token>
                                        el token deja de funcionar de inmediato en todas las instancias
  integrations:allowed-ips <id|nombre> [--set "203.0.113.7, 198.51.100.0/24, 2001:db8::/32" | --anywhere]
                                        muestra o reemplaza sus direcciones IP permitidas (direcciones IPv4 o
                                        IPv6 y rangos CIDR); a las solicitudes desde otras direcciones se les
                                        responde como a credenciales desconocidas
  integrations:purpose <id|nombre> [--set "..."]
                                        muestra o fija su finalidad de uso declarada (queda en la auditoría;
                                        se ve en su página de la consola y en sus estados de cuenta mensuales)
  integrations:details <id|nombre>
               [--technical-name "..."] [--technical-email correo] [--technical-phone teléfono]
               [--billing-name "..."] [--billing-email correo] [--billing-phone teléfono]
                                        muestra la razón social, el NIT y la dirección (los de sus datos de
                                        facturación) y muestra o cambia los contactos técnico y de facturación
                                        (solo los dados; "" quita uno); queda en la auditoría
  integrations:deactivate <id|nombre>   rechaza sus credenciales (reactivate lo deshace)
  integrations:reactivate <id|nombre>   vuelve a aceptar sus credenciales
  users:create <correo> --name "..." --role admin|support [--password-stdin]
                                        crea un usuario de la consola; muestra una sola vez una contraseña
                                        generada, o se la pide (--password-stdin: escrita sin que se
                                        vea, o la primera línea de la entrada estándar si llega por una tubería)
  users:list                            los usuarios de la consola, con su rol, su estado (activo o desactivado)
                                        y su verificación en dos pasos (activada o no)
  users:reset-two-factor <correo>       quita el segundo factor de un usuario (perdió el teléfono y los códigos
                                        de recuperación); sus sesiones terminan y se inscribe de nuevo al entrar
  portal:invite --integration id|nombre --email correo [--role propietario|desarrollador|facturacion]
                                        invita a una persona de la integración al portal de integradores (/portal),
                                        como propietario si no se indica otro rol: le llega por correo
                                        (ALERT_SMTP_HOST) un enlace de un solo uso que vence en 72 horas; en
                                        desarrollo sin servidor de correo, el enlace es la respuesta de esta orden
               [--link --reason "quién lo pidió y por qué"]
                                        --link: no envía correo, responde con el enlace para que usted lo entregue
                                        (también en producción); el motivo queda en la auditoría, el enlace no
  portal:reset-password <correo> --link --reason "quién lo pidió y por qué"
                                        responde con un enlace de un solo uso (vence en 60 minutos) para que la
                                        persona elija una contraseña nueva, sin correo; el motivo queda en la
                                        auditoría, el enlace no
  portal:reset-two-factor <correo>      quita el segundo factor de una persona del portal (perdió el teléfono y
                                        los códigos, y no hay otro propietario que la quite e invite de nuevo);
                                        sus sesiones terminan
  records:list [--integration id|nombre] [--lookup consulta] [--identifier NIT-o-CUI]
               [--request-id req_…] [--limit N] [--motivo "ticket o razón"]
                                        registros de consultas, el más reciente primero, con NIT y CUI
                                        enmascarados (--request-id: la consulta con ese x-request-id, ninguna si
                                        la solicitud se rechazó antes de llegar a una fuente); con --motivo salen
                                        completos y el acceso queda registrado; --identifier (un NIT o CUI
                                        escrito de cualquier forma, también dentro de lotes /rtu/nits) lo exige;
                                        --lookup es "RENAP por CUI" (renap), "RTU por NIT" (rtu_nits), "Catálogo
                                        CUI/NIT" (cui_nit), "Catálogo RTU" (rtu) o "Catálogo omisos" (omisos)
  records:purge [--export-dir DIRECTORIO]
                                        borra los registros de consultas más antiguos que
                                        QUERY_RECORD_RETENTION_MONTHS (como la tarea diaria), antes archivados en
                                        DIRECTORIO como CSV comprimido con gzip, y los envíos de alertas igual de antiguos
  records:partition [--batch N] [--pause-ms MS]
                                        particiona por mes una tabla de registros de consultas que la migración
                                        dejó sin particionar (más de 100,000 registros) mientras el servicio
                                        atiende: copia por lotes de N (20000) y cambia las tablas en una
                                        transacción de milisegundos (docs/deploy.md, «Partitioned query records»)
  personal-data:reseal [--batch N] [--pause-ms MS] [--restart]
                                        lleva cada registro de consulta a las claves actuales PERSONAL_DATA_KEY y
                                        PERSONAL_DATA_SEARCH_KEY: cifra los registros aún en claro y vuelve a
                                        cifrar los que están bajo una clave anterior; por lotes de N (2000) según
                                        su id, cada uno una transacción corta, mientras el servicio atiende; si se
                                        interrumpe, sigue donde quedó (--restart: desde el primer registro).
                                        Después, igual por lotes, los vínculos NIT-CUI, los ítems de lotes y las
                                        listas de vigilancia (sus NIT, estados y cambios) y los secretos de webhook
                                        aún bajo una clave anterior

Cada orden que cambia algo admite --envio CLAVE (hasta 100 letras, números, «.», «_», «:» o «-»): con la
misma CLAVE, repetida en cualquier máquina en las siguientes 24 horas, no vuelve a hacer el cambio y
muestra el resultado de la primera vez (repetir una recarga que no respondió no la acredita dos veces).

Códigos de salida: 0 terminó bien (también una orden con --envio que ya se había hecho); 1 ledger:verify o books:verify encontró diferencias,
top-ups:duplicates encontró solicitudes que comparten referencia, o un error inesperado;
2 orden, opción o dato no válido, o cambio rechazado; 3 no existe la integración, el usuario o el
token indicado.
CLI_LOG_LEVEL=info (o warn, error…) escribe además el registro estructurado (JSON) en stderr.`;
