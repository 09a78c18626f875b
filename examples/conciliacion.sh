#!/usr/bin/env bash
# Conciliación nocturna por request id (GET /api/consultas y GET /api/consultas/{request_id}): compara
# los x-request-id que su sistema registró un día con las consultas que la pasarela registró ese día.
#
#   export BASE_URL=https://su-servicio/api LOGIN=su-integracion TOKEN=...
#   examples/conciliacion.sh request-ids.txt             # ayer, calendario de Guatemala
#   examples/conciliacion.sh request-ids.txt 2026-11-26  # otro día
#
# request-ids.txt: un x-request-id (req_…) por línea, los que recibió su sistema ese día.
# Imprime una línea por request id: cobrada (con su monto), sin cobro (y por qué, con las palabras del
# portal y de soporte) o desconocida (la pasarela no la tiene: nunca llegó, llegó con otras
# credenciales, o no es un request id); luego las consultas registradas ese día que su archivo no
# tiene (también las de sus lotes y vigilancias) y los totales. Termina con 1 si hay alguna
# desconocida o alguna registrada que su archivo no tiene, para que cron le avise.
# Lee la lista del día de 50 en 50 y pregunta uno por uno solo los que no se cobraron o no están en
# ella. Estas lecturas cuentan en el contador de /lotes (60 por minuto) y en el global por IP: ante un
# 429 espera un minuto y sigue.
# Requiere bash, curl y jq.
set -euo pipefail

archivo=${1:?Uso: conciliacion.sh request-ids.txt [AAAA-MM-DD]}
dia=${2:-$(TZ=America/Guatemala date -d yesterday +%F)}
: "${BASE_URL:?Defina BASE_URL (por ejemplo https://su-servicio/api)}" "${LOGIN:?Defina LOGIN}" "${TOKEN:?Defina TOKEN}"
# Un minuto entre reintentos tras un 429 en producción; solo las pruebas lo bajan.
espera=${ESPERA_MINIMA_SEGUNDOS:-60}

leer() { # ruta: imprime el cuerpo (nada en un 404); espera tras un 429; termina con cualquier otro error
  local respuesta estado
  while :; do
    respuesta=$(curl -sS -w '\n%{http_code}' "$BASE_URL$1" -H "x-integracion-login: $LOGIN" -H "x-integracion-token: $TOKEN")
    estado=${respuesta##*$'\n'}
    [[ $estado == 429 ]] || break
    echo "HTTP 429 en GET $1: vuelvo a intentar en $espera s." >&2
    sleep "$espera"
  done
  case $estado in
    2*) printf '%s' "${respuesta%$'\n'*}" ;;
    404) ;;
    *) echo "HTTP $estado en GET $1: ${respuesta%$'\n'*}" >&2; exit 1 ;;
  esac
}

centavos() { local q=${1/./}; echo $((10#$q)); } # "12.50" → 1250
quetzales() { printf 'Q %d.%02d' $(($1 / 100)) $(($1 % 100)); }

# Las consultas registradas ese día, todas las páginas: request id → "consulta monto", y su orden.
declare -A registradas=()
orden=()
ruta="/consultas?desde=$dia&hasta=$dia"
while :; do
  pagina=$(leer "$ruta")
  while read -r id consulta monto; do registradas[$id]="$consulta $monto"; orden+=("$id"); done < <(jq -r '.consultas[] | "\(.request_id) \(.consulta) \(.monto_cobrado)"' <<<"$pagina")
  siguiente=$(jq -r '.siguiente // empty' <<<"$pagina")
  [[ -z $siguiente ]] && break
  ruta="/consultas?desde=$dia&hasta=$dia&cursor=$(jq -rn --arg cursor "$siguiente" '$cursor | @uri')"
done

declare -A en_archivo=() repetidas=()
cobradas=0 cobrado=0 sin_cobro=0 desconocidas=0
while read -r id || [[ -n $id ]]; do # también la última línea sin salto de línea
  [[ -z $id || -n ${en_archivo[$id]:-} ]] && continue
  en_archivo[$id]=1
  read -r consulta monto <<<"${registradas[$id]:-}"
  if [[ -z ${monto:-} || $monto == 0.00 ]]; then
    # No está en la lista del día o no se cobró: qué pasó, con su propio request id.
    respuesta=$(leer "/consultas/$(jq -rn --arg id "$id" '$id | @uri')")
    if [[ -z $respuesta ]]; then
      echo "$id desconocida: la pasarela no tiene una solicitud de su integración con ese request id."
      desconocidas=$((desconocidas + 1))
      continue
    fi
    read -r consulta monto <<<"$(jq -r '"\(.consulta) \(.monto_cobrado)"' <<<"$respuesta")"
    # Una repetición (la misma Idempotency-Key) no se cobra: se cobró su original, que su archivo
    # puede no tener si su sistema no recibió aquella respuesta.
    repite=$(jq -r '.repite // empty' <<<"$respuesta")
    [[ -n $repite ]] && repetidas[$repite]=$id
  fi
  if [[ $monto != 0.00 ]]; then
    echo "$id cobrada ($consulta): Q $monto"
    cobradas=$((cobradas + 1)) cobrado=$((cobrado + $(centavos "$monto")))
  else
    echo "$id sin cobro ($consulta): $(jq -r 'if .tipo == "consulta" then .registro.motivo_sin_cobro else .resumen end' <<<"$respuesta")"
    sin_cobro=$((sin_cobro + 1))
  fi
done < <(tr -d '\r' <"$archivo" | sed 's/[[:space:]]//g')

# Las registradas ese día que su archivo no tiene: la original de una repetición que sí tiene, o una
# consulta que su sistema no registró (también las de sus lotes y vigilancias).
faltan=0 faltan_cobrado=0
for id in "${orden[@]}"; do
  [[ -n ${en_archivo[$id]:-} ]] && continue
  read -r consulta monto <<<"${registradas[$id]}"
  if [[ -n ${repetidas[$id]:-} ]]; then
    echo "$id cobrada ($consulta): Q $monto, la original de ${repetidas[$id]}"
    cobradas=$((cobradas + 1)) cobrado=$((cobrado + $(centavos "$monto")))
  else
    echo "$id no está en su archivo ($consulta): Q $monto"
    faltan=$((faltan + 1)) faltan_cobrado=$((faltan_cobrado + $(centavos "$monto")))
  fi
done

echo "Conciliación del $dia: $cobradas cobradas por $(quetzales $cobrado), $sin_cobro sin cobro, $desconocidas desconocidas; $faltan registradas que su archivo no tiene, por $(quetzales $faltan_cobrado)."
if (( desconocidas > 0 || faltan > 0 )); then exit 1; fi
