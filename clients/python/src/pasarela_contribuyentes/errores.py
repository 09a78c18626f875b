"""Un error por causa del contrato.

Un estado no dice la causa: los dos 401, los dos 402, los tres 403 y los tres 429 solo se
distinguen por el mensaje, así que cada causa se decide aquí, una vez, por estado y mensaje.
"""

from typing import Any, Mapping, Optional

from .mensajes import CAUSA_POR_ESTADO, CAUSA_POR_MENSAJE


class ErrorDeConsulta(Exception):
    """Toda respuesta que la pasarela no resolvió, con lo necesario para reportarla."""

    def __init__(self, mensaje: str, status: int, request_id: Optional[str], body: Any) -> None:
        super().__init__(mensaje)
        self.mensaje = mensaje
        #: El estado HTTP (0 si no llegó respuesta).
        self.status = status
        #: El x-request-id de la respuesta: cítelo a soporte. None si no llegó respuesta.
        self.request_id = request_id
        #: El cuerpo tal como llegó (JSON ya leído, o texto).
        self.body = body
        #: Cuántos intentos tomó (más de 1 si se reintentó un 502 o una conexión fallida).
        self.intentos = 1


class SolicitudNoValida(ErrorDeConsulta):
    """400: falta un identificador que se pueda usar, o la solicitud está mal formada."""


class DatosRechazadosPorLaFuente(ErrorDeConsulta):
    """400: la fuente rechazó los datos de la consulta."""


class ClaveDeIdempotenciaReusada(ErrorDeConsulta):
    """400: la Idempotency-Key ya se usó en 24 horas con otro cuerpo u otra ruta."""


class IntegracionNoEncontrada(ErrorDeConsulta):
    """401: las dos cabeceras de credenciales no corresponden a ninguna integración."""


class AutenticacionDelServicioRechazada(ErrorDeConsulta):
    """401: la fuente rechazó la autenticación del servicio: escriba a soporte."""


class SaldoInsuficiente(ErrorDeConsulta):
    """402: el saldo prepagado no paga la consulta; no corrió ni se cobró."""


class SaldoDelServicioAgotado(ErrorDeConsulta):
    """402: se agotó el saldo del propio servicio con la fuente: escriba a soporte."""


class CredencialesRequeridas(ErrorDeConsulta):
    """403: la solicitud no llevó credenciales de integración."""


class ConsultaNoHabilitada(ErrorDeConsulta):
    """403: esta consulta no está habilitada para su integración."""


class ConsultaNegadaPorLaFuente(ErrorDeConsulta):
    """403: la fuente no permite este tipo de consulta al servicio: escriba a soporte."""


class NoEncontrado(ErrorDeConsulta):
    """404: la fuente no tiene información para esos datos ahora (no que el contribuyente no exista)."""


class LimitePorMinuto(ErrorDeConsulta):
    """429: el límite por minuto de su integración en esta ruta. No lo reintente solo."""


class FuenteLimitando(ErrorDeConsulta):
    """429: la fuente está limitando las consultas."""


class LimiteGlobalPorIp(ErrorDeConsulta):
    """429: el límite global por dirección IP (100 cada 15 minutos), con el cuerpo propio del limitador."""


class ErrorInterno(ErrorDeConsulta):
    """500: una falla que la pasarela no manejó, o (registros) la falla al consultar el registro."""


class ServicioNoDisponible(ErrorDeConsulta):
    """502: la fuente no respondió a tiempo o falló: no se resolvió ni se cobró (el cliente ya reintentó)."""


class SinRespuesta(ErrorDeConsulta):
    """No llegó respuesta (una falla de red o el tiempo de espera) después de cada reintento."""


#: Los mensajes del contrato, byte por byte (generados de los de la pasarela: mensajes.py), y la causa que nombra cada uno.
POR_MENSAJE = {mensaje: globals()[causa] for mensaje, causa in CAUSA_POR_MENSAJE.items()}

#: Cuando el mensaje no es uno del contrato: la causa que el estado solo permite (mensajes.py).
POR_ESTADO = {estado: globals()[causa] for estado, causa in CAUSA_POR_ESTADO.items()}


def error_de(status: int, request_id: Optional[str], body: Any, headers: Mapping[str, str]) -> ErrorDeConsulta:
    """El error del contrato para una respuesta que no es un éxito (headers con nombres en minúsculas)."""
    mensaje = _mensaje(body)
    # El limitador global responde con su propio cuerpo, no con el JSON de la API: mire el Content-Type.
    if status == 429 and "application/json" not in headers.get("content-type", ""):
        return LimiteGlobalPorIp(body if isinstance(body, str) and body else "Límite global por IP", status, request_id, body)
    if status == 400 and headers.get("x-motivo-rechazo") == "idempotency-key-reused":
        return ClaveDeIdempotenciaReusada(mensaje or "", status, request_id, body)
    tipo = POR_MENSAJE.get(mensaje or "") or POR_ESTADO.get(status) or ErrorDeConsulta
    return tipo(mensaje or "HTTP %d" % status, status, request_id, body)


def _mensaje(body: Any) -> Optional[str]:
    if isinstance(body, dict):
        for clave in ("message", "error"):
            if isinstance(body.get(clave), str):
                return body[clave]
    return None
