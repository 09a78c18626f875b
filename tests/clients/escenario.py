"""The shared client scenario, in Python: run by tests/clients/python-client.test.ts from a virtual
environment where only the built wheel is installed. Each step prints one JSON line of what a user
would notice; the test asserts it and the app's ledger."""

import json
import sys
import time
import urllib.request

import pasarela_contribuyentes as p

datos = json.loads(sys.argv[2])


def cliente(quien, token=None):
    return p.ClienteConsultas(datos["base_url"], quien["login"], token or quien["token"], espera_base=0.01)


def causa(llamada):
    try:
        llamada()
    except p.ErrorDeConsulta as error:
        return {"tipo": type(error).__name__, "status": error.status, "request_id": error.request_id, "intentos": error.intentos}
    return None


def consultas():
    c = cliente(datos["main"])
    nit, cui = datos["nit"], datos["cui"]
    renap = c.renap(cui)
    respuestas = [c.rtu_nits([nit]), c.cui_nit(nit=nit), c.rtu(nit=nit), c.omisos(nit=nit)]
    return {
        "renap": renap.body["data"]["cui"],
        "request_id": renap.request_id,
        "estados": [r.status for r in respuestas],
        "con_data": ["data" in r.body for r in respuestas],
        "claves": [r.idempotency_key for r in respuestas],
        "intentos": [r.intentos for r in respuestas],
    }


def errores():
    nit = datos["nit"]
    return {
        "clave_equivocada": causa(lambda: cliente(datos["main"], "tlk_no-es-el-token").cui_nit(nit=nit)),
        "catalogo_apagado": causa(lambda: cliente(datos["disabled"]).cui_nit(nit=nit)),
        "registro_apagado": causa(lambda: cliente(datos["disabled"]).renap(datos["cui"])),
        "sin_saldo": causa(lambda: cliente(datos["broke"]).omisos(nit=nit)),
        "no_encontrado": causa(lambda: cliente(datos["main"]).omisos(nit=datos["unknown_nit"])),
        "sin_identificador": causa(lambda: cliente(datos["main"]).omisos()),
    }


def reintento():
    # Each attempt's Idempotency-Key, as urllib sends it.
    enviadas = []
    abrir = urllib.request.urlopen

    def contando(solicitud, *argumentos, **opciones):
        enviadas.append(solicitud.get_header("Idempotency-key"))
        return abrir(solicitud, *argumentos, **opciones)

    urllib.request.urlopen = contando
    try:
        r = cliente(datos["main"]).omisos(nit=datos["nit"])
    finally:
        urllib.request.urlopen = abrir
    return {"status": r.status, "intentos": r.intentos, "clave": r.idempotency_key, "enviadas": enviadas}


def limite():
    c = cliente(datos["limited"])
    for _ in range(40):
        encontrado = causa(lambda: c.cui_nit(nit=datos["nit"]))
        if encontrado:
            return encontrado
    return None


def lote():
    c = cliente(datos["main"])
    identificadores = [datos["nit"], datos["unknown_nit"], "no-es-nit"]
    creado = c.crear_lote("omisos", identificadores, idempotency_key="lote-python")
    otra_vez = c.crear_lote("omisos", identificadores, idempotency_key="lote-python")
    vistos = []
    terminado = c.esperar_lote(creado["id"], intervalo=1, al_avanzar=lambda l: vistos.append(l["estado"]), hasta=time.monotonic() + 60)
    return {
        "mismo": creado["id"] == otra_vez["id"],
        "estado": terminado["estado"],
        "conteos": terminado["conteos"],
        "ultimo_visto": vistos[-1],
        "filas": [fila["estado"] for fila in c.resultados_lote(creado["id"])],
        "csv": c.resultados_lote_csv(creado["id"]).splitlines()[0],
        "listado": creado["id"] in [l["id"] for l in c.lotes()],
    }


def vigilancia():
    c = cliente(datos["main"])
    creada = c.crear_vigilancia("Proveedores", "omisos", "mensual", [datos["nit"]])
    listada = creada["id"] in [v["id"] for v in c.vigilancias()]
    cambiada = c.modificar_vigilancia(creada["id"], nombre="Proveedores 2027", estado="en_pausa")
    cambios = list(c.cambios_vigilancia(creada["id"]))
    c.eliminar_vigilancia(creada["id"])
    return {"listada": listada, "nombre": cambiada["nombre"], "estado": cambiada["estado"], "cambios": cambios, "despues": causa(lambda: c.vigilancia(creada["id"]))}


def paginas():
    ids = [m["id"] for m in cliente(datos["paged"]).movimientos()]
    return {"ids": ids, "saldo": cliente(datos["paged"]).cuenta()["saldo_centavos"]}


def aviso():
    a = datos["aviso"]
    return {
        "valido": p.verificar_aviso(a["secreto"], a["cuerpo"], a["fecha"], a["firma"]),
        "bytes": p.verificar_aviso(a["secreto"], a["cuerpo"].encode("utf-8"), a["fecha"], a["firma"]),
        "alterado": p.verificar_aviso(a["secreto"], a["cuerpo"] + " ", a["fecha"], a["firma"]),
        "otro_secreto": p.verificar_aviso("whsec_otro", a["cuerpo"], a["fecha"], a["firma"]),
        "viejo": p.verificar_aviso(a["secreto"], a["cuerpo"], a["fecha"], a["firma"], ahora=int(a["fecha"]) + 600),
    }


def causas():
    # Each answer's cause, as the library decides it from status, body and headers alone.
    return {"tipos": [type(p.error_de(r["status"], None, r["body"], r["headers"])).__name__ for r in datos["respuestas"]]}


def obligatorios():
    problemas = []
    for argumentos in (("", "a", "b"), ("https://x/api", "a", "")):
        try:
            p.ClienteConsultas(*argumentos)
        except ValueError as error:
            problemas.append(str(error))
    return {"problemas": problemas, "tiempo_de_espera": p.TIEMPO_DE_ESPERA}


print(json.dumps(globals()[sys.argv[1]](), ensure_ascii=False))
