"""Cliente de la pasarela de consultas de contribuyentes de Guatemala."""

from .avisos import verificar_aviso
from .cliente import REINTENTOS, TIEMPO_DE_ESPERA, ClienteConsultas, Respuesta
from .errores import (
    AutenticacionDelServicioRechazada,
    ClaveDeIdempotenciaReusada,
    ConsultaNegadaPorLaFuente,
    ConsultaNoHabilitada,
    CredencialesRequeridas,
    DatosRechazadosPorLaFuente,
    ErrorDeConsulta,
    ErrorInterno,
    FuenteLimitando,
    IntegracionNoEncontrada,
    LimiteGlobalPorIp,
    LimitePorMinuto,
    NoEncontrado,
    SaldoDelServicioAgotado,
    SaldoInsuficiente,
    ServicioNoDisponible,
    SinRespuesta,
    SolicitudNoValida,
    error_de,
)

__all__ = [name for name in dir() if not name.startswith("_")]
