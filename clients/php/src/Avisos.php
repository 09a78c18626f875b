<?php
// Los avisos del servicio al webhook de su integración: HMAC-SHA256 con el secreto de firma sobre
// "<X-Alerta-Fecha>.<cuerpo tal como llegó>", en hexadecimal con "sha256=" delante en
// X-Alerta-Firma; la fecha a no más de cinco minutos del reloj.

declare(strict_types=1);

namespace PasarelaContribuyentes;

final class Avisos
{
    /**
     * Si el aviso es del servicio y reciente. Responda 401 si no; 2xx sin repetir el trabajo de un id ya atendido.
     *
     * @param string $cuerpo el cuerpo tal como llegó (file_get_contents('php://input')), sin decodificar
     */
    public static function verificar(string $secreto, string $cuerpo, ?string $fecha, ?string $firma, int $toleranciaSegundos = 300, ?int $ahora = null): bool
    {
        if ($firma === null || $firma === '' || $fecha === null || preg_match('/^\s*-?\d+\s*$/', $fecha) !== 1) {
            return false;
        }
        $enviado = (int) trim($fecha);
        if (abs(($ahora ?? time()) - $enviado) > $toleranciaSegundos) {
            return false;
        }
        $esperada = 'sha256=' . hash_hmac('sha256', $enviado . '.' . $cuerpo, $secreto);
        return hash_equals($esperada, $firma);
    }
}
