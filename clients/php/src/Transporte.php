<?php
// Cómo viaja una solicitud: cURL por omisión; otro transporte (el de un proxy, el de una prueba)
// implementa esta interfaz. Un transporte no reintenta ni decide causas: eso es del cliente.

declare(strict_types=1);

namespace PasarelaContribuyentes;

interface Transporte
{
    /**
     * Envía una solicitud y devuelve la respuesta, sea cual sea su estado.
     *
     * @param array<string, string> $cabeceras
     * @throws FallaDeRed si no llegó respuesta (la solicitud pudo llegar o no)
     */
    public function enviar(string $metodo, string $url, array $cabeceras, ?string $cuerpo, float $tiempoDeEspera): RespuestaHttp;
}

/** Una respuesta HTTP tal como llegó, con los nombres de sus cabeceras en minúsculas. */
final class RespuestaHttp
{
    /** @param array<string, string> $cabeceras */
    public function __construct(public readonly int $status, public readonly array $cabeceras, public readonly string $cuerpo) {}
}

/** No llegó respuesta: la conexión falló o se acabó el tiempo de espera. */
final class FallaDeRed extends \RuntimeException {}

/** El transporte por omisión, con la extensión cURL de PHP. */
final class TransporteCurl implements Transporte
{
    public function enviar(string $metodo, string $url, array $cabeceras, ?string $cuerpo, float $tiempoDeEspera): RespuestaHttp
    {
        $recibidas = [];
        $lineas = ['Expect:'];
        foreach ($cabeceras as $nombre => $valor) {
            $lineas[] = $nombre . ': ' . $valor;
        }
        $curl = curl_init($url);
        curl_setopt_array($curl, [
            CURLOPT_CUSTOMREQUEST => $metodo,
            CURLOPT_HTTPHEADER => $lineas,
            CURLOPT_RETURNTRANSFER => true,
            CURLOPT_FOLLOWLOCATION => false,
            CURLOPT_TIMEOUT_MS => (int) round($tiempoDeEspera * 1000),
            CURLOPT_HEADERFUNCTION => static function ($curl, string $linea) use (&$recibidas): int {
                if (str_starts_with($linea, 'HTTP/')) {
                    $recibidas = []; // una respuesta 1xx antes de la final
                } elseif (str_contains($linea, ':')) {
                    [$nombre, $valor] = explode(':', $linea, 2);
                    $recibidas[strtolower(trim($nombre))] = trim($valor);
                }
                return strlen($linea);
            },
        ]);
        if ($cuerpo !== null) {
            curl_setopt($curl, CURLOPT_POSTFIELDS, $cuerpo);
        }
        $texto = curl_exec($curl);
        if ($texto === false) {
            $falla = curl_error($curl);
            curl_close($curl);
            throw new FallaDeRed($falla);
        }
        $status = (int) curl_getinfo($curl, CURLINFO_RESPONSE_CODE);
        curl_close($curl);
        return new RespuestaHttp($status, $recibidas, (string) $texto);
    }
}
