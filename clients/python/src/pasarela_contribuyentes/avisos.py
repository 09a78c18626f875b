"""Los avisos del servicio al webhook de su integración.

HMAC-SHA256 con el secreto de firma sobre "<X-Alerta-Fecha>.<cuerpo tal como llegó>", en
hexadecimal con "sha256=" delante en X-Alerta-Firma; la fecha a no más de cinco minutos del reloj.
"""

import hashlib
import hmac
import time
from typing import Optional, Union


def verificar_aviso(
    secreto: str,
    cuerpo: Union[bytes, str],
    fecha: Optional[str],
    firma: Optional[str],
    tolerancia_segundos: int = 300,
    ahora: Optional[int] = None,
) -> bool:
    """Si el aviso es del servicio y reciente. Responda 401 si no; 2xx sin repetir el trabajo de un id ya atendido."""
    if not firma or fecha is None or not fecha.strip().lstrip("-").isdigit():
        return False
    enviado = int(fecha)
    reloj = int(time.time()) if ahora is None else ahora
    if abs(reloj - enviado) > tolerancia_segundos:
        return False
    datos = cuerpo.encode("utf-8") if isinstance(cuerpo, str) else cuerpo
    esperada = "sha256=" + hmac.new(secreto.encode("utf-8"), str(enviado).encode("ascii") + b"." + datos, hashlib.sha256).hexdigest()
    return hmac.compare_digest(esperada.encode("ascii"), firma.encode("utf-8"))
