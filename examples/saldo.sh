#!/usr/bin/env bash
# Aviso de saldo bajo (GET /api/cuenta), para cron o su sistema de monitoreo: imprime el saldo y
# termina con un código distinto de 0 cuando está bajo, para que su sistema avise antes de que los
# catálogos respondan 402.
#
#   export BASE_URL=https://su-servicio/api LOGIN=su-integracion TOKEN=...
#   examples/saldo.sh          # bajo el umbral de saldo bajo de su integración (el del portal)
#   examples/saldo.sh 500.00   # bajo Q 500.00
#
# Termina con 0 si el saldo alcanza, 1 si está bajo, 2 si está agotado (los catálogos responden 402
# hasta una recarga) y 3 si no pudo leerlo. Consultar su cuenta no gasta el límite de sus consultas
# ni el global por IP: puede correrlo cada pocos minutos.
# Requiere bash, curl y jq.
set -euo pipefail

minimo=${1:-}
: "${BASE_URL:?Defina BASE_URL (por ejemplo https://su-servicio/api)}" "${LOGIN:?Defina LOGIN}" "${TOKEN:?Defina TOKEN}"
if [[ -n $minimo && ! $minimo =~ ^[0-9]+(\.[0-9]{1,2})?$ ]]; then echo "Uso: saldo.sh [monto mínimo en quetzales, por ejemplo 500.00]" >&2; exit 3; fi

respuesta=$(curl -sS -w '\n%{http_code}' "$BASE_URL/cuenta" -H "x-integracion-login: $LOGIN" -H "x-integracion-token: $TOKEN") || exit 3
estado=${respuesta##*$'\n'}
cuenta=${respuesta%$'\n'*}
if [[ $estado != 200 ]]; then echo "HTTP $estado en GET /cuenta: $cuenta" >&2; exit 3; fi

# Los montos en centavos (enteros) para comparar; en quetzales (texto) para mostrar.
saldo=$(jq .saldo_centavos <<<"$cuenta")
if [[ -n $minimo ]]; then
  limite=$(jq -n --arg q "$minimo" '$q | tonumber * 100 | round')
  limite_texto="Q $minimo"
else
  limite=$(jq .umbral_saldo_bajo_centavos <<<"$cuenta")
  limite_texto="el umbral de saldo bajo, Q $(jq -r .umbral_saldo_bajo <<<"$cuenta")"
fi
linea=$(jq -r '"Saldo de \(.integracion): Q \(.saldo), paga \(.consultas_que_paga // "sin límite de") consultas a Q \(.tarifa)."' <<<"$cuenta")

if [[ $(jq -r .sin_saldo <<<"$cuenta") == true ]]; then
  echo "AVISO: $linea Sin saldo: los catálogos responden 402 hasta que se acredite una recarga." >&2
  exit 2
fi
if (( saldo < limite )); then
  echo "AVISO: $linea Está bajo $limite_texto: recargue (depósito reportado en Recargas del portal)." >&2
  exit 1
fi
echo "$linea No está bajo $limite_texto."
