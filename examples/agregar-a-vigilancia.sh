#!/usr/bin/env bash
# Agrega a una vigilancia, buscada por su nombre (GET /api/vigilancias), el NIT del proveedor que su
# sistema dio de alta hoy (PATCH /api/vigilancias/{id} con agregar_nits).
#
#   export BASE_URL=https://su-servicio/api LOGIN=su-integracion TOKEN=...
#   examples/agregar-a-vigilancia.sh "Proveedores" 576937-K [otro NIT…]
#
# Conserva la historia de la lista: el NIT agregado no tiene estado anterior, así que la próxima
# ejecución guarda su estado sin reportar cambios y desde la siguiente se compara. Correrlo dos veces
# no agrega nada la segunda: el NIT vuelve en apartados como duplicado. Termina con 1 si ninguna
# vigilancia, o más de una, tiene ese nombre (entonces use el id). El NIT solo viaja en el cuerpo
# del PATCH, nunca en la dirección.
# Requiere bash, curl y jq.
set -euo pipefail

nombre=${1:?Uso: agregar-a-vigilancia.sh nombre NIT [NIT…]}
shift
(( $# > 0 )) || { echo 'Falta al menos un NIT.' >&2; exit 2; }
: "${BASE_URL:?Defina BASE_URL (por ejemplo https://su-servicio/api)}" "${LOGIN:?Defina LOGIN}" "${TOKEN:?Defina TOKEN}"

llamar() { # método ruta [cuerpo]: imprime el cuerpo; termina si el estado no es 2xx
  local respuesta estado envio=()
  if [[ $# -ge 3 ]]; then envio=(-H 'content-type: application/json' --data-binary "$3"); fi
  respuesta=$(curl -sS -w '\n%{http_code}' -X "$1" "$BASE_URL$2" \
    -H "x-integracion-login: $LOGIN" -H "x-integracion-token: $TOKEN" "${envio[@]}")
  estado=${respuesta##*$'\n'}
  if [[ $estado != 2* ]]; then echo "HTTP $estado en $1 $2: ${respuesta%$'\n'*}" >&2; exit 1; fi
  printf '%s' "${respuesta%$'\n'*}"
}

# Todas las páginas de sus vigilancias: los id de las que tienen ese nombre.
ids=()
ruta=/vigilancias
while :; do
  pagina=$(llamar GET "$ruta")
  mapfile -t -O "${#ids[@]}" ids < <(jq -r --arg nombre "$nombre" '.vigilancias[] | select(.nombre == $nombre) | .id' <<<"$pagina")
  siguiente=$(jq -r '.siguiente // empty' <<<"$pagina")
  [[ -z $siguiente ]] && break
  ruta="/vigilancias?cursor=$(jq -rn --arg cursor "$siguiente" '$cursor | @uri')"
done
case ${#ids[@]} in
  1) id=${ids[0]} ;;
  0) echo "Ninguna de sus vigilancias se llama «$nombre»." >&2; exit 1 ;;
  *) echo "Hay ${#ids[@]} vigilancias llamadas «$nombre» (${ids[*]}): use el id con PATCH /vigilancias/{id}." >&2; exit 1 ;;
esac

cuerpo=$(jq -n '{agregar_nits: $ARGS.positional}' --args "$@")
vigilancia=$(llamar PATCH "/vigilancias/$id" "$cuerpo")
jq -r '"Vigilancia \(.id) «\(.nombre)» (\(.catalogo), \(.frecuencia), \(.estado)): \(.nits) NIT vigilados. Próxima ejecución: \(.proxima_ejecucion)."' <<<"$vigilancia"
jq -r '.apartados[] | "Apartado: NIT \(.posicion) de los enviados, \(.motivo)."' <<<"$vigilancia"
