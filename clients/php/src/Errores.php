<?php
// Un error por causa del contrato. Un estado no dice la causa: los dos 401, los dos 402, los tres
// 403 y los tres 429 solo se distinguen por el mensaje, así que cada causa se decide aquí, una vez,
// por estado y mensaje (la tabla se genera de los mensajes de la pasarela: Mensajes.php).

declare(strict_types=1);

namespace PasarelaContribuyentes;

/** Toda respuesta que la pasarela no resolvió, con lo necesario para reportarla. */
class ErrorDeConsulta extends \RuntimeException
{
    /** Cuántos intentos tomó (más de 1 si se reintentó un 502 o una conexión fallida). */
    public int $intentos = 1;

    /**
     * @param int $status El estado HTTP (0 si no llegó respuesta).
     * @param ?string $requestId El x-request-id de la respuesta: cítelo a soporte.
     * @param mixed $body El cuerpo tal como llegó (JSON ya leído como arreglo, o texto).
     */
    public function __construct(string $mensaje, public readonly int $status, public readonly ?string $requestId, public readonly mixed $body, ?\Throwable $causa = null)
    {
        parent::__construct($mensaje, 0, $causa);
    }

    /**
     * El error del contrato para una respuesta que no es un éxito.
     *
     * @param array<string, string> $cabeceras con nombres en minúsculas
     */
    public static function de(int $status, ?string $requestId, mixed $body, array $cabeceras): self
    {
        $mensaje = self::mensajeDe($body);
        // El limitador global responde con su propio cuerpo, no con el JSON de la API: mire el Content-Type.
        if ($status === 429 && !str_contains($cabeceras['content-type'] ?? '', 'application/json')) {
            return new LimiteGlobalPorIp(is_string($body) && $body !== '' ? $body : 'Límite global por IP', $status, $requestId, $body);
        }
        if ($status === 400 && ($cabeceras['x-motivo-rechazo'] ?? null) === 'idempotency-key-reused') {
            return new ClaveDeIdempotenciaReusada($mensaje ?? '', $status, $requestId, $body);
        }
        $causa = Mensajes::CAUSA_POR_MENSAJE[$mensaje ?? ''] ?? Mensajes::CAUSA_POR_ESTADO[$status] ?? null;
        $clase = $causa === null ? self::class : __NAMESPACE__ . '\\' . $causa;
        // Una causa que una versión nueva de la tabla nombre antes que su clase: el error de siempre.
        if (!class_exists($clase)) {
            $clase = self::class;
        }
        return new $clase($mensaje ?? sprintf('HTTP %d', $status), $status, $requestId, $body);
    }

    private static function mensajeDe(mixed $body): ?string
    {
        if (is_array($body)) {
            foreach (['message', 'error'] as $campo) {
                if (isset($body[$campo]) && is_string($body[$campo])) {
                    return $body[$campo];
                }
            }
        }
        return null;
    }
}

/** 400: falta un identificador que se pueda usar, o la solicitud está mal formada. */
class SolicitudNoValida extends ErrorDeConsulta {}

/** 400: la fuente rechazó los datos de la consulta. */
class DatosRechazadosPorLaFuente extends ErrorDeConsulta {}

/** 400: la Idempotency-Key ya se usó en 24 horas con otro cuerpo u otra ruta. */
class ClaveDeIdempotenciaReusada extends ErrorDeConsulta {}

/** 401: las dos cabeceras de credenciales no corresponden a ninguna integración. */
class IntegracionNoEncontrada extends ErrorDeConsulta {}

/** 401: la fuente rechazó la autenticación del servicio: escriba a soporte. */
class AutenticacionDelServicioRechazada extends ErrorDeConsulta {}

/** 402: el saldo prepagado no paga la consulta; no corrió ni se cobró. */
class SaldoInsuficiente extends ErrorDeConsulta {}

/** 402: se agotó el saldo del propio servicio con la fuente: escriba a soporte. */
class SaldoDelServicioAgotado extends ErrorDeConsulta {}

/** 403: la solicitud no llevó credenciales de integración. */
class CredencialesRequeridas extends ErrorDeConsulta {}

/** 403: esta consulta no está habilitada para su integración. */
class ConsultaNoHabilitada extends ErrorDeConsulta {}

/** 403: la fuente no permite este tipo de consulta al servicio: escriba a soporte. */
class ConsultaNegadaPorLaFuente extends ErrorDeConsulta {}

/** 404: la fuente no tiene información para esos datos ahora (no que el contribuyente no exista). */
class NoEncontrado extends ErrorDeConsulta {}

/** 429: el límite por minuto de su integración en esta ruta. No lo reintente solo. */
class LimitePorMinuto extends ErrorDeConsulta {}

/** 429: la fuente está limitando las consultas. */
class FuenteLimitando extends ErrorDeConsulta {}

/** 429: el límite global por dirección IP (100 cada 15 minutos), con el cuerpo propio del limitador. */
class LimiteGlobalPorIp extends ErrorDeConsulta {}

/** 500: una falla que la pasarela no manejó, o (registros) la falla al consultar el registro. */
class ErrorInterno extends ErrorDeConsulta {}

/** 502: la fuente no respondió a tiempo o falló: no se resolvió ni se cobró (el cliente ya reintentó). */
class ServicioNoDisponible extends ErrorDeConsulta {}

/** No llegó respuesta (una falla de red o el tiempo de espera) después de cada reintento. */
class SinRespuesta extends ErrorDeConsulta {}
