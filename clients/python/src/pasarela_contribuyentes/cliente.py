"""El cliente de la pasarela de consultas de contribuyentes (docs/clients.md).

Lo que la generación no puede decir, igual en cada lenguaje: el error del contrato por causa,
reintentos solo donde el contrato dice que son seguros, una Idempotency-Key por consulta de
catálogo que se conserva en sus reintentos, y un tiempo de espera mayor que el tope de 30 segundos.
Solo la biblioteca estándar.
"""

import json
import random
import socket
import time
import uuid
import urllib.error
import urllib.parse
import urllib.request
from typing import Any, Dict, Iterator, Mapping, Optional

from .errores import ServicioNoDisponible, SinRespuesta, error_de

#: Segundos por intento: más que el tope de 30 segundos del contrato.
TIEMPO_DE_ESPERA = 45.0
REINTENTOS = 3
_LOTE_TERMINADO = ("completado", "cancelado")


class Respuesta:
    """Una respuesta de consulta: el cuerpo del contrato y lo que dijeron sus cabeceras."""

    def __init__(self, body: Any, status: int, request_id: Optional[str], idempotency_key: Optional[str], repetida: bool, constancia: Optional[Dict[str, str]], intentos: int) -> None:
        self.body = body
        self.status = status
        self.request_id = request_id
        #: La Idempotency-Key que envió (catálogos), la misma en cada reintento.
        self.idempotency_key = idempotency_key
        #: La misma respuesta dada otra vez por repetir la clave (no se cobró otra vez).
        self.repetida = repetida
        #: Con constancia=True: {"id", "url"} de la constancia, o {"motivo"} por el que no se emitió.
        self.constancia = constancia
        self.intentos = intentos


class _Recibida:
    def __init__(self, status: int, body: Any, headers: Mapping[str, str], request_id: Optional[str], intentos: int) -> None:
        self.status = status
        self.body = body
        self.headers = headers
        self.request_id = request_id
        self.intentos = intentos


class ClienteConsultas:
    def __init__(
        self,
        base_url: str,
        login: str,
        token: str,
        tiempo_de_espera: float = TIEMPO_DE_ESPERA,
        reintentos: int = REINTENTOS,
        espera_base: float = 0.5,
        espera_maxima: float = 8.0,
    ) -> None:
        if not base_url:
            raise ValueError("base_url es obligatoria: la dirección de la API del ambiente (producción o desarrollo)")
        if not login or not token:
            raise ValueError("login y token son obligatorios: las dos credenciales de la integración")
        self._base_url = base_url.rstrip("/")
        self._login = login
        self._token = token
        self._tiempo = tiempo_de_espera
        self._reintentos = reintentos
        self._espera_base = espera_base
        self._espera_maxima = espera_maxima

    # Las cinco consultas

    def renap(self, cui: str, constancia: bool = False) -> Respuesta:
        """POST /renap/buscar-cui: el registro de personas por CUI."""
        return self._consulta("/renap/buscar-cui", {"cui": cui}, constancia, None, catalogo=False)

    def rtu_nits(self, nits: list, constancia: bool = False) -> Respuesta:
        """POST /rtu/nits: el RTU de hasta 50 NIT."""
        return self._consulta("/rtu/nits", {"nits": nits}, constancia, None, catalogo=False)

    def cui_nit(self, nit: Optional[str] = None, cui: Optional[str] = None, constancia: bool = False, idempotency_key: Optional[str] = None) -> Respuesta:
        """POST /catalogos/cui-nit (se cobra)."""
        return self._consulta("/catalogos/cui-nit", _identificador(nit, cui), constancia, idempotency_key, catalogo=True)

    def rtu(self, nit: Optional[str] = None, cui: Optional[str] = None, constancia: bool = False, idempotency_key: Optional[str] = None, **opciones: Any) -> Respuesta:
        """POST /catalogos/rtu (se cobra). Opciones del contrato como actualizado=True o date_of_birth="dd/mm/aaaa"."""
        return self._consulta("/catalogos/rtu", {**_identificador(nit, cui), **opciones}, constancia, idempotency_key, catalogo=True)

    def omisos(self, nit: Optional[str] = None, cui: Optional[str] = None, constancia: bool = False, idempotency_key: Optional[str] = None) -> Respuesta:
        """POST /catalogos/omisos (se cobra)."""
        return self._consulta("/catalogos/omisos", _identificador(nit, cui), constancia, idempotency_key, catalogo=True)

    # Su cuenta

    def cuenta(self) -> Dict[str, Any]:
        """GET /cuenta: saldo, tarifa, consultas habilitadas, límites y gasto."""
        return self._enviar("GET", "/cuenta").body

    def movimientos(self, desde: Optional[str] = None, hasta: Optional[str] = None, tipo: Optional[str] = None) -> Iterator[Dict[str, Any]]:
        """GET /cuenta/movimientos, todas sus páginas, del más reciente al más antiguo."""
        return self._paginas("/cuenta/movimientos", "movimientos", {"desde": desde, "hasta": hasta, "tipo": tipo})

    def consultas(self, **filtros: Any) -> Iterator[Dict[str, Any]]:
        """GET /consultas, todas sus páginas (filtros: consulta, estado, resultado, desde, hasta)."""
        return self._paginas("/consultas", "consultas", filtros)

    def consulta(self, request_id: str) -> Dict[str, Any]:
        """GET /consultas/{request_id}: qué pasó con una solicitud."""
        return self._enviar("GET", "/consultas/" + urllib.parse.quote(request_id, safe="")).body

    # Lotes

    def crear_lote(self, catalogo: str, identificadores: list, constancias: bool = False, idempotency_key: Optional[str] = None) -> Dict[str, Any]:
        """POST /lotes: un lote, creado una vez aunque se reintente (una clave por llamada)."""
        cuerpo: Dict[str, Any] = {"catalogo": catalogo, "identificadores": identificadores}
        if constancias:
            cuerpo["constancias"] = True
        clave = idempotency_key or str(uuid.uuid4())
        return self._enviar("POST", "/lotes", cuerpo=cuerpo, cabeceras={"idempotency-key": clave}).body

    def lote(self, lote_id: str) -> Dict[str, Any]:
        return self._enviar("GET", "/lotes/" + urllib.parse.quote(lote_id, safe="")).body

    def lotes(self) -> Iterator[Dict[str, Any]]:
        return self._paginas("/lotes", "lotes", {})

    def esperar_lote(self, lote_id: str, intervalo: float = 2.0, al_avanzar: Any = None, hasta: Optional[float] = None) -> Dict[str, Any]:
        """Lee el lote cada `intervalo` segundos hasta que termina (completado o cancelado); `hasta` (time.monotonic) lo corta."""
        while True:
            lote = self.lote(lote_id)
            if al_avanzar:
                al_avanzar(lote)
            if lote["estado"] in _LOTE_TERMINADO:
                return lote
            if hasta is not None and time.monotonic() > hasta:
                raise TimeoutError("el lote %s sigue %s" % (lote_id, lote["estado"]))
            time.sleep(intervalo)

    def resultados_lote(self, lote_id: str) -> Iterator[Dict[str, Any]]:
        """GET /lotes/{id}/resultados en JSON por línea, un resultado a la vez."""
        texto = self._enviar("GET", "/lotes/%s/resultados" % urllib.parse.quote(lote_id, safe=""), aceptar="application/x-ndjson").body
        for linea in str(texto).splitlines():
            if linea.strip():
                yield json.loads(linea)

    def resultados_lote_csv(self, lote_id: str) -> str:
        return str(self._enviar("GET", "/lotes/%s/resultados" % urllib.parse.quote(lote_id, safe=""), aceptar="text/csv").body)

    # Vigilancias

    def crear_vigilancia(self, nombre: str, catalogo: str, frecuencia: str, nits: list, constancias: bool = False, idempotency_key: Optional[str] = None) -> Dict[str, Any]:
        cuerpo: Dict[str, Any] = {"nombre": nombre, "catalogo": catalogo, "frecuencia": frecuencia, "nits": nits}
        if constancias:
            cuerpo["constancias"] = True
        clave = idempotency_key or str(uuid.uuid4())
        return self._enviar("POST", "/vigilancias", cuerpo=cuerpo, cabeceras={"idempotency-key": clave}).body

    def vigilancias(self) -> Iterator[Dict[str, Any]]:
        return self._paginas("/vigilancias", "vigilancias", {})

    def vigilancia(self, vigilancia_id: str) -> Dict[str, Any]:
        return self._enviar("GET", "/vigilancias/" + urllib.parse.quote(vigilancia_id, safe="")).body

    def modificar_vigilancia(self, vigilancia_id: str, **cambio: Any) -> Dict[str, Any]:
        """PATCH /vigilancias/{id}: nombre, frecuencia, estado, agregar_nits, quitar_nits o constancias."""
        return self._enviar("PATCH", "/vigilancias/" + urllib.parse.quote(vigilancia_id, safe=""), cuerpo=cambio).body

    def eliminar_vigilancia(self, vigilancia_id: str) -> None:
        self._enviar("DELETE", "/vigilancias/" + urllib.parse.quote(vigilancia_id, safe=""))

    def cambios_vigilancia(self, vigilancia_id: str) -> Iterator[Dict[str, Any]]:
        return self._paginas("/vigilancias/%s/cambios" % urllib.parse.quote(vigilancia_id, safe=""), "cambios", {})

    # El transporte

    def _consulta(self, ruta: str, cuerpo: Dict[str, Any], constancia: bool, idempotency_key: Optional[str], catalogo: bool) -> Respuesta:
        # Fijada antes del primer intento: cada reintento de esta llamada es la misma llamada, cobrada una vez.
        clave = (idempotency_key or str(uuid.uuid4())) if catalogo else None
        cabeceras: Dict[str, str] = {}
        if clave:
            cabeceras["idempotency-key"] = clave
        if constancia:
            cabeceras["x-constancia"] = "true"
        recibida = self._enviar("POST", ruta, cuerpo=cuerpo, cabeceras=cabeceras)
        return Respuesta(
            recibida.body,
            recibida.status,
            recibida.request_id,
            clave,
            recibida.headers.get("idempotency-replayed") == "true",
            _constancia(recibida.headers) if constancia else None,
            recibida.intentos,
        )

    def _paginas(self, ruta: str, campo: str, filtros: Mapping[str, Any]) -> Iterator[Dict[str, Any]]:
        cursor: Optional[str] = None
        while True:
            pagina = self._enviar("GET", ruta, consulta={**filtros, "cursor": cursor}).body
            for elemento in pagina.get(campo) or []:
                yield elemento
            cursor = pagina.get("siguiente")
            if not cursor:
                return

    def _enviar(self, metodo: str, ruta: str, cuerpo: Any = None, cabeceras: Optional[Dict[str, str]] = None, consulta: Optional[Mapping[str, Any]] = None, aceptar: str = "application/json") -> _Recibida:
        url = self._base_url + ruta
        parametros = {nombre: str(valor) for nombre, valor in (consulta or {}).items() if valor is not None}
        if parametros:
            url += "?" + urllib.parse.urlencode(parametros)
        todas = {"x-integracion-login": self._login, "x-integracion-token": self._token, "accept": aceptar, **(cabeceras or {})}
        datos = None
        if cuerpo is not None:
            datos = json.dumps(cuerpo, ensure_ascii=False).encode("utf-8")
            todas["content-type"] = "application/json"
        intento = 0
        while True:
            intento += 1
            ultimo = intento > self._reintentos
            solicitud = urllib.request.Request(url, data=datos, headers=todas, method=metodo)
            try:
                with urllib.request.urlopen(solicitud, timeout=self._tiempo) as respuesta:
                    return self._recibida(respuesta.status, respuesta.read(), respuesta.headers, intento)
            except urllib.error.HTTPError as respuesta:
                recibida = self._recibida(respuesta.code, respuesta.read(), respuesta.headers, intento)
                error = error_de(recibida.status, recibida.request_id, recibida.body, recibida.headers)
                error.intentos = intento
                if not isinstance(error, ServicioNoDisponible) or ultimo:
                    raise error
            except (urllib.error.URLError, socket.timeout, ConnectionError) as falla:
                # Sin respuesta: la solicitud pudo llegar o no. Enviada otra vez con su clave, cuenta una vez.
                if ultimo:
                    error = SinRespuesta("Sin respuesta de %s: %s" % (ruta, falla), 0, None, None)
                    error.intentos = intento
                    raise error from falla
            time.sleep(random.uniform(0, min(self._espera_maxima, self._espera_base * 2 ** (intento - 1))))

    @staticmethod
    def _recibida(status: int, crudo: bytes, headers: Any, intentos: int) -> _Recibida:
        minusculas = {nombre.lower(): valor for nombre, valor in headers.items()}
        texto = crudo.decode("utf-8", errors="replace")
        body: Any = texto
        if "application/json" in minusculas.get("content-type", ""):
            try:
                body = json.loads(texto)
            except ValueError:
                body = texto
        return _Recibida(status, body, minusculas, minusculas.get("x-request-id"), intentos)


def _identificador(nit: Optional[str], cui: Optional[str]) -> Dict[str, str]:
    cuerpo: Dict[str, str] = {}
    if nit is not None:
        cuerpo["nit"] = nit
    if cui is not None:
        cuerpo["cui"] = cui
    return cuerpo


def _constancia(headers: Mapping[str, str]) -> Dict[str, str]:
    if headers.get("x-constancia-id") and headers.get("x-constancia-url"):
        return {"id": headers["x-constancia-id"], "url": headers["x-constancia-url"]}
    return {"motivo": headers.get("x-constancia-motivo", "no-disponible")}
