#!/usr/bin/env bash
# Vigilancia de una lista de NIT (POST /api/vigilancias): la crea desde un archivo, la lee, descarga
# sus cambios y la borra.
#
#   export BASE_URL=https://su-servicio/api LOGIN=su-integracion TOKEN=...
#   examples/vigilancia.sh crear proveedores.csv omisos mensual "Proveedores"
#   examples/vigilancia.sh ver vig_0123456789abcdef0123
#   examples/vigilancia.sh cambios vig_0123456789abcdef0123 cambios.csv
#   examples/vigilancia.sh borrar vig_0123456789abcdef0123
#
# proveedores.csv: un NIT por línea, en la primera columna (una fila de encabezado que no sea un NIT
# se aparta como inválida; no se guarda ni se consulta). Catálogo: omisos o rtu. Frecuencia: mensual o
# semanal. La primera ejecución empieza al crearla y es la base: no reporta cambios.
# La Idempotency-Key de "crear" es el SHA-256 del archivo, el catálogo, la frecuencia y el nombre: si
# el script se corta y lo vuelve a correr con lo mismo, recibe la misma vigilancia, nunca una segunda
# que correría y cobraría en cada ejecución. Guarde el id que imprime "crear".
# No hace falta consultar los cambios a cada rato: si su sistema recibe el aviso vigilancia_cambios
# por webhook, corra "cambios" cuando llegue. Los NIT solo viajan en el cuerpo de las respuestas,
# nunca en la dirección; el cursor de las páginas nombra una posición, no un NIT.
# Requiere bash, curl y jq.
set -euo pipefail

uso='Uso: vigilancia.sh crear archivo.csv catalogo frecuencia [nombre] | ver id | cambios id [cambios.csv] | borrar id'
accion=${1:?$uso}
: "${BASE_URL:?Defina BASE_URL (por ejemplo https://su-servicio/api)}" "${LOGIN:?Defina LOGIN}" "${TOKEN:?Defina TOKEN}"

llamar() { # método ruta [cuerpo [clave]]: imprime el cuerpo; termina si el estado no es 2xx
  local respuesta estado envio=()
  if [[ $# -ge 3 ]]; then envio=(-H 'content-type: application/json' --data-binary "$3"); fi
  if [[ $# -ge 4 ]]; then envio+=(-H "Idempotency-Key: $4"); fi
  respuesta=$(curl -sS -w '\n%{http_code}' -X "$1" "$BASE_URL$2" \
    -H "x-integracion-login: $LOGIN" -H "x-integracion-token: $TOKEN" "${envio[@]}")
  estado=${respuesta##*$'\n'}
  if [[ $estado != 2* ]]; then echo "HTTP $estado en $1 $2: ${respuesta%$'\n'*}" >&2; exit 1; fi
  printf '%s' "${respuesta%$'\n'*}"
}

resumen() { # el cuerpo de una vigilancia, en una línea
  jq -r '"Vigilancia \(.id) «\(.nombre)» (\(.catalogo), \(.frecuencia), \(.estado)): \(.nits) NIT vigilados, \(.ejecuciones) ejecuciones, \(.cambios) cambios."
    + (if .ultima_ejecucion then " Última ejecución: lote \(.ultima_ejecucion.lote), \(.ultima_ejecucion.estado)." else "" end)
    + " Próxima: \(.proxima_ejecucion)."' <<<"$1"
}

case $accion in
  crear)
    archivo=${2:?$uso}
    catalogo=${3:?Falta el catálogo: omisos o rtu}
    frecuencia=${4:?Falta la frecuencia: mensual o semanal}
    nombre=${5:-$(basename "$archivo" .csv)}
    cuerpo=$(cut -d, -f1 "$archivo" | tr -d '\r"' | sed '/^[[:space:]]*$/d' | jq -R . |
      jq -s --arg nombre "$nombre" --arg catalogo "$catalogo" --arg frecuencia "$frecuencia" '{nombre: $nombre, catalogo: $catalogo, frecuencia: $frecuencia, nits: .}')
    clave="vigilancia-$({ cat "$archivo"; printf '%s\n' "$catalogo" "$frecuencia" "$nombre"; } | sha256sum | cut -c1-32)"
    vigilancia=$(llamar POST /vigilancias "$cuerpo" "$clave")
    resumen "$vigilancia"
    jq -r '.apartados[] | "Apartado sin guardar: fila \(.posicion), \(.motivo)."' <<<"$vigilancia"
    ;;
  ver)
    # Asignada primero: una sustitución dentro de un argumento no detendría el script si falla.
    vigilancia=$(llamar GET "/vigilancias/${2:?$uso}")
    resumen "$vigilancia"
    ;;
  cambios)
    id=${2:?$uso}
    salida=${3:-cambios.csv}
    # Todas las páginas, la ejecución más reciente primero. antes y despues: true, false, un estado
    # del RTU, encontrado o no_encontrado; vacío cuando la fuente no lo reportó.
    echo 'nit,tipo,antes,despues,ejecucion,lote,detectado_en' >"$salida"
    ruta="/vigilancias/$id/cambios"
    total=0
    while :; do
      pagina=$(llamar GET "$ruta")
      jq -r '.cambios[] | [.nit, .tipo, (.antes | if . == null then "" else tostring end), (.despues | if . == null then "" else tostring end), .ejecucion, .lote, .detectado_en] | @csv' <<<"$pagina" >>"$salida"
      total=$((total + $(jq '.cambios | length' <<<"$pagina")))
      siguiente=$(jq -r '.siguiente // empty' <<<"$pagina")
      [[ -z $siguiente ]] && break
      ruta="/vigilancias/$id/cambios?cursor=$(jq -rn --arg cursor "$siguiente" '$cursor | @uri')"
    done
    echo "$total cambios en $salida."
    ;;
  borrar)
    id=${2:?$uso}
    llamar DELETE "/vigilancias/$id" >/dev/null
    echo "Vigilancia $id borrada, con sus NIT y sus cambios."
    ;;
  *)
    echo "$uso" >&2
    exit 2
    ;;
esac
