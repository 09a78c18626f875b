#!/usr/bin/env bash
# Envía un archivo CSV como lote (POST /api/lotes), espera a que termine y descarga sus resultados.
#
#   BASE_URL=https://su-servicio/api LOGIN=su-integracion TOKEN=... \
#     examples/lote.sh proveedores.csv omisos resultados.csv
#
# proveedores.csv: un NIT o CUI por línea, en la primera columna (una fila de encabezado que no sea un
# identificador se aparta como inválida, sin costo). Catálogo: cui-nit, rtu u omisos.
# La clave Idempotency-Key es el SHA-256 del archivo y del catálogo: si el script se corta y lo vuelve
# a correr con el mismo archivo, retoma el mismo lote en lugar de crear y pagar otro.
# Mientras espera, consulta el estado una vez por minuto como mucho, guiado por estimado_fin (cada
# consulta cuenta para el límite global por IP). Si su sistema recibe el aviso lote_completado por
# webhook, no necesita esperar: descargue los resultados cuando llegue.
# Requiere bash, curl y jq.
set -euo pipefail

archivo=${1:?Uso: lote.sh archivo.csv catalogo [resultados.csv]}
catalogo=${2:?Falta el catálogo: cui-nit, rtu u omisos}
salida=${3:-resultados.csv}
: "${BASE_URL:?Defina BASE_URL (por ejemplo https://su-servicio/api)}" "${LOGIN:?Defina LOGIN}" "${TOKEN:?Defina TOKEN}"
# Nunca menos de 60 segundos entre consultas del estado en producción; solo las pruebas lo bajan.
espera_minima=${ESPERA_MINIMA_SEGUNDOS:-60}

clave="lote-$({ cat "$archivo"; printf '%s' "$catalogo"; } | sha256sum | cut -c1-32)"
cuerpo=$(cut -d, -f1 "$archivo" | tr -d '\r"' | sed '/^[[:space:]]*$/d' | jq -R . | jq -s --arg catalogo "$catalogo" '{catalogo: $catalogo, identificadores: .}')

llamar() { # método ruta [cuerpo]: imprime el cuerpo; termina si el estado no es 2xx
  local respuesta estado envio=()
  if [[ $# -ge 3 ]]; then envio=(-H 'content-type: application/json' -H "Idempotency-Key: $clave" --data-binary "$3"); fi
  respuesta=$(curl -sS -w '\n%{http_code}' -X "$1" "$BASE_URL$2" \
    -H "x-integracion-login: $LOGIN" -H "x-integracion-token: $TOKEN" "${envio[@]}")
  estado=${respuesta##*$'\n'}
  if [[ $estado != 2* ]]; then echo "HTTP $estado en $1 $2: ${respuesta%$'\n'*}" >&2; exit 1; fi
  printf '%s' "${respuesta%$'\n'*}"
}

lote=$(llamar POST /lotes "$cuerpo")
id=$(jq -r .id <<<"$lote")
echo "Lote $id: $(jq -r '.conteos.total' <<<"$lote") identificadores, $(jq -r '.conteos.invalidos' <<<"$lote") apartados sin costo."

while true; do
  estado=$(jq -r .estado <<<"$lote")
  case $estado in
    completado | cancelado) break ;;
    en_pausa_sin_saldo) echo "En pausa: sin saldo. Sigue solo cuando se acredite una recarga." >&2 ;;
  esac
  # Hasta estimado_fin, pero nunca antes de espera_minima ni más de 10 minutos seguidos.
  fin=$(jq -r '.estimado_fin // empty' <<<"$lote")
  segundos=$espera_minima
  if [[ -n $fin ]]; then
    faltan=$(( $(date -d "$fin" +%s) - $(date +%s) ))
    (( faltan > segundos )) && segundos=$faltan
    (( segundos > 600 )) && segundos=600
  fi
  echo "$(jq -r '"\(.estado): \(.conteos.procesados) de \(.conteos.total)"' <<<"$lote"); vuelvo a consultar en $segundos s."
  sleep "$segundos"
  lote=$(llamar GET "/lotes/$id")
done

curl -sS --fail -o "$salida" "$BASE_URL/lotes/$id/resultados" -H "x-integracion-login: $LOGIN" -H "x-integracion-token: $TOKEN"
echo "$(jq -r '"Lote \(.estado): \(.conteos.encontrados) encontrados, \(.conteos.no_encontrados) no encontrados, \(.conteos.fallidos) con error de la fuente; cobrado Q \(.monto_cobrado)."' <<<"$lote")"
echo "Resultados en $salida."
if [[ $(jq -r .conteos.fallidos <<<"$lote") != 0 ]]; then echo "Para reintentar los fallidos: POST $BASE_URL/lotes/$id/reintentar"; fi
