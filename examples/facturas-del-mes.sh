#!/usr/bin/env bash
# Conciliación contable de un mes (GET /api/cuenta/movimientos y GET /api/cuenta/facturas): cada
# recarga del mes con su factura electrónica (FEL), las anulaciones y notas de crédito, y los totales,
# para su ERP o su contador, sin abrir el portal.
#
#   export BASE_URL=https://su-servicio/api LOGIN=su-integracion TOKEN=...
#   examples/facturas-del-mes.sh            # el mes en curso, calendario de Guatemala
#   examples/facturas-del-mes.sh 2026-11    # otro mes
#   examples/facturas-del-mes.sh 2026-11 facturas/   # y guarda el XML y el PDF de cada factura allí
#
# Imprime una línea por recarga (fecha, monto, su factura: serie, número, UUID y estado, o por qué no
# la tiene), una por anulación o nota de crédito, y los totales: recargas = facturado + sin factura,
# y lo neto facturado (facturado − anulado − notas de crédito). Termina con 1 si una recarga no tiene
# factura y el servicio factura, o si los totales no coinciden; con 2 si no pudo leer.
# Estas lecturas cuentan en el límite propio de /cuenta (60 por minuto): ante un 429 espera un minuto.
# Requiere bash, curl y jq.
set -euo pipefail

mes=${1:-$(TZ=America/Guatemala date +%Y-%m)}
carpeta=${2:-}
: "${BASE_URL:?Defina BASE_URL (por ejemplo https://su-servicio/api)}" "${LOGIN:?Defina LOGIN}" "${TOKEN:?Defina TOKEN}"
if [[ ! $mes =~ ^[0-9]{4}-(0[1-9]|1[0-2])$ ]]; then echo "Uso: facturas-del-mes.sh [AAAA-MM] [carpeta]" >&2; exit 2; fi
espera=${ESPERA_MINIMA_SEGUNDOS:-60}
desde="$mes-01"
hasta=$(date -d "$desde +1 month -1 day" +%F)

leer() { # ruta: imprime el cuerpo; espera tras un 429; termina con 2 en cualquier otro error
  local respuesta estado
  while :; do
    respuesta=$(curl -sS -w '\n%{http_code}' "$BASE_URL$1" -H "x-integracion-login: $LOGIN" -H "x-integracion-token: $TOKEN") || exit 2
    estado=${respuesta##*$'\n'}
    [[ $estado == 429 ]] || break
    echo "HTTP 429 en GET $1: vuelvo a intentar en $espera s." >&2
    sleep "$espera"
  done
  if [[ $estado != 200 ]]; then echo "HTTP $estado en GET $1: ${respuesta%$'\n'*}" >&2; exit 2; fi
  printf '%s' "${respuesta%$'\n'*}"
}

todas() { # ruta y campo de la lista: todas las páginas, un objeto JSON por línea
  local ruta=$1 campo=$2 pagina siguiente separador
  while :; do
    pagina=$(leer "$ruta")
    jq -c ".${campo}[]" <<<"$pagina"
    siguiente=$(jq -r '.siguiente // empty' <<<"$pagina")
    [[ -z $siguiente ]] && break
    separador='&'
    ruta="${ruta%%&cursor=*}${separador}cursor=$(jq -rn --arg cursor "$siguiente" '$cursor | @uri')"
  done
}

quetzales() { printf 'Q %d.%02d' $(($1 / 100)) $(($1 % 100)); }
fecha() { TZ=America/Guatemala date -d "$1" '+%d/%m/%Y'; }

declare -A factura_de=()
facturas=$(todas "/cuenta/facturas?desde=$desde&hasta=$hasta" facturas)
while read -r linea; do
  [[ -z $linea ]] && continue
  factura_de[$(jq -r .id <<<"$linea")]=$linea
done <<<"$facturas"

recargas=0 facturado=0 sin_factura=0 anulado=0 acreditado=0 faltan=0
echo "Recargas de $mes y sus facturas (hora de Guatemala):"
while read -r movimiento; do
  [[ -z $movimiento ]] && continue
  monto=$(jq .monto_centavos <<<"$movimiento")
  recargas=$((recargas + monto))
  id=$(jq -r '.factura_id // empty' <<<"$movimiento")
  dia=$(fecha "$(jq -r .fecha <<<"$movimiento")")
  if [[ -z $id ]]; then
    sin_factura=$((sin_factura + monto))
    echo "  $dia  $(quetzales "$monto")  sin factura: se acreditó cuando el servicio no facturaba"
    continue
  fi
  factura=${factura_de[$id]:-}
  if [[ -z $factura ]]; then
    faltan=$((faltan + 1))
    echo "  $dia  $(quetzales "$monto")  ¡su factura #$id no está en la lista del mes!"
    continue
  fi
  total=$(jq .total_centavos <<<"$factura")
  facturado=$((facturado + total))
  echo "  $dia  $(quetzales "$monto")  $(jq -r 'if .numero then "FEL \(.serie)-\(.numero) UUID \(.uuid)" else "factura #\(.id)" end + " · \(.estado_texto)"' <<<"$factura")"
  if (( total != monto )); then faltan=$((faltan + 1)); echo "    ¡el total de la factura, $(quetzales "$total"), no es el de la recarga!"; fi
  # Una factura cuyo receptor se corrigió queda anulada (o con nota de crédito) sin mover el saldo, y
  # la recarga lleva la que la reemplaza: la de factura_id.
  reemplaza=$(jq -r '.reemplaza_a // empty' <<<"$factura")
  if [[ -n $reemplaza ]]; then echo "    reemplaza a la factura #$reemplaza, cuyo receptor se corrigió (sin mover el saldo)"; fi
  while read -r documento; do
    [[ -z $documento ]] && continue
    revertido=$(jq .monto_centavos <<<"$documento")
    if [[ $(jq -r .estado <<<"$documento") == certificado ]]; then
      if [[ $(jq -r .tipo <<<"$documento") == anulacion ]]; then anulado=$((anulado + revertido)); else acreditado=$((acreditado + revertido)); fi
    fi
    echo "    $(jq -r '(if .tipo == "anulacion" then "Anulación" else "Nota de crédito" end) + (if .numero then " \(.serie)-\(.numero) UUID \(.uuid)" else "" end) + " (\(.estado))"' <<<"$documento") $(quetzales "$revertido")"
  done < <(jq -c '.documentos[]' <<<"$factura")
  if [[ -n $carpeta && $(jq -r '.xml // empty' <<<"$factura") != '' ]]; then
    mkdir -p "$carpeta"
    nombre=$(jq -r '"factura-\(.serie)-\(.numero)"' <<<"$factura")
    curl -sSf "$BASE_URL$(jq -r .xml <<<"$factura")" -H "x-integracion-login: $LOGIN" -H "x-integracion-token: $TOKEN" -o "$carpeta/$nombre.xml" || exit 2
    curl -sSf "$BASE_URL$(jq -r .pdf <<<"$factura")" -H "x-integracion-login: $LOGIN" -H "x-integracion-token: $TOKEN" -o "$carpeta/$nombre.pdf" || exit 2
  fi
done < <(todas "/cuenta/movimientos?tipo=recarga&desde=$desde&hasta=$hasta" movimientos)

echo "Recargas: $(quetzales $recargas) = facturado $(quetzales $facturado) + sin factura $(quetzales $sin_factura)"
echo "Neto facturado: $(quetzales $((facturado - anulado - acreditado))) (anulado $(quetzales $anulado), notas de crédito $(quetzales $acreditado))"
if (( faltan > 0 || recargas != facturado + sin_factura )); then
  echo "Las cuentas del mes no cuadran: revise las líneas marcadas con ¡!" >&2
  exit 1
fi
echo "Las cuentas del mes cuadran."
