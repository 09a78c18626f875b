<?php
// El cliente de la pasarela de consultas de contribuyentes (docs/clients.md). Lo que la generación
// no puede decir, igual en cada lenguaje: el error del contrato por causa, reintentos solo donde el
// contrato dice que son seguros, una Idempotency-Key por consulta de catálogo que se conserva en sus
// reintentos, y un tiempo de espera mayor que el tope de 30 segundos.

declare(strict_types=1);

namespace PasarelaContribuyentes;

/** Una respuesta de consulta: el cuerpo del contrato y lo que dijeron sus cabeceras. */
final class Respuesta
{
    /**
     * @param array<string, mixed> $body el cuerpo del contrato
     * @param ?string $idempotencyKey la que envió (catálogos), la misma en cada reintento
     * @param bool $repetida la misma respuesta dada otra vez por repetir la clave (no se cobró otra vez)
     * @param ?array<string, string> $constancia con constancia: true, ['id', 'url'] de la constancia, o ['motivo'] por el que no se emitió
     */
    public function __construct(
        public readonly array $body,
        public readonly int $status,
        public readonly ?string $requestId,
        public readonly ?string $idempotencyKey,
        public readonly bool $repetida,
        public readonly ?array $constancia,
        public readonly int $intentos,
    ) {}
}

final class ClienteConsultas
{
    /** Segundos por intento: más que el tope de 30 segundos del contrato. */
    public const TIEMPO_DE_ESPERA = 45.0;
    public const REINTENTOS = 3;
    private const LOTE_TERMINADO = ['completado', 'cancelado'];

    private readonly string $baseUrl;
    private readonly Transporte $transporte;

    /**
     * @param string $baseUrl la dirección de la API del ambiente (producción o desarrollo), por ejemplo https://…/api
     * @param float $esperaBase segundos: el primer reintento espera al azar hasta esto, el siguiente hasta el doble…
     */
    public function __construct(
        string $baseUrl,
        private readonly string $login,
        private readonly string $token,
        private readonly float $tiempoDeEspera = self::TIEMPO_DE_ESPERA,
        private readonly int $reintentos = self::REINTENTOS,
        private readonly float $esperaBase = 0.5,
        private readonly float $esperaMaxima = 8.0,
        ?Transporte $transporte = null,
    ) {
        if ($baseUrl === '') {
            throw new \InvalidArgumentException('baseUrl es obligatoria: la dirección de la API del ambiente (producción o desarrollo)');
        }
        if ($login === '' || $token === '') {
            throw new \InvalidArgumentException('login y token son obligatorios: las dos credenciales de la integración');
        }
        $this->baseUrl = rtrim($baseUrl, '/');
        $this->transporte = $transporte ?? new TransporteCurl();
    }

    // Las cinco consultas

    /** POST /renap/buscar-cui: el registro de personas por CUI. */
    public function renap(string $cui, bool $constancia = false): Respuesta
    {
        return $this->consultar('/renap/buscar-cui', ['cui' => $cui], $constancia, null, false);
    }

    /** POST /rtu/nits: el RTU de hasta 50 NIT. @param list<string> $nits */
    public function rtuNits(array $nits, bool $constancia = false): Respuesta
    {
        return $this->consultar('/rtu/nits', ['nits' => $nits], $constancia, null, false);
    }

    /** POST /catalogos/cui-nit (se cobra). */
    public function cuiNit(?string $nit = null, ?string $cui = null, bool $constancia = false, ?string $idempotencyKey = null): Respuesta
    {
        return $this->consultar('/catalogos/cui-nit', self::identificador($nit, $cui), $constancia, $idempotencyKey, true);
    }

    /**
     * POST /catalogos/rtu (se cobra).
     *
     * @param array<string, mixed> $opciones opciones del contrato como ['actualizado' => true] o ['date_of_birth' => 'dd/mm/aaaa']
     */
    public function rtu(?string $nit = null, ?string $cui = null, bool $constancia = false, ?string $idempotencyKey = null, array $opciones = []): Respuesta
    {
        return $this->consultar('/catalogos/rtu', self::identificador($nit, $cui) + $opciones, $constancia, $idempotencyKey, true);
    }

    /** POST /catalogos/omisos (se cobra). */
    public function omisos(?string $nit = null, ?string $cui = null, bool $constancia = false, ?string $idempotencyKey = null): Respuesta
    {
        return $this->consultar('/catalogos/omisos', self::identificador($nit, $cui), $constancia, $idempotencyKey, true);
    }

    // Su cuenta

    /** GET /cuenta: saldo, tarifa, consultas habilitadas, límites y gasto. @return array<string, mixed> */
    public function cuenta(): array
    {
        return $this->enviar('GET', '/cuenta')['body'];
    }

    /** GET /cuenta/movimientos, todas sus páginas, del más reciente al más antiguo. @return \Generator<array<string, mixed>> */
    public function movimientos(?string $desde = null, ?string $hasta = null, ?string $tipo = null): \Generator
    {
        return $this->paginas('/cuenta/movimientos', 'movimientos', ['desde' => $desde, 'hasta' => $hasta, 'tipo' => $tipo]);
    }

    /**
     * GET /consultas, todas sus páginas.
     *
     * @param array<string, string|null> $filtros consulta, estado, resultado, desde, hasta
     * @return \Generator<array<string, mixed>>
     */
    public function consultas(array $filtros = []): \Generator
    {
        return $this->paginas('/consultas', 'consultas', $filtros);
    }

    /** GET /consultas/{request_id}: qué pasó con una solicitud. @return array<string, mixed> */
    public function consulta(string $requestId): array
    {
        return $this->enviar('GET', '/consultas/' . rawurlencode($requestId))['body'];
    }

    // Lotes

    /**
     * POST /lotes: un lote, creado una vez aunque se reintente (una clave por llamada).
     *
     * @param list<string> $identificadores
     * @return array<string, mixed>
     */
    public function crearLote(string $catalogo, array $identificadores, bool $constancias = false, ?string $idempotencyKey = null): array
    {
        $cuerpo = ['catalogo' => $catalogo, 'identificadores' => $identificadores];
        if ($constancias) {
            $cuerpo['constancias'] = true;
        }
        return $this->enviar('POST', '/lotes', $cuerpo, ['idempotency-key' => $idempotencyKey ?? self::nuevaClave()])['body'];
    }

    /** @return array<string, mixed> */
    public function lote(string $loteId): array
    {
        return $this->enviar('GET', '/lotes/' . rawurlencode($loteId))['body'];
    }

    /** @return \Generator<array<string, mixed>> */
    public function lotes(): \Generator
    {
        return $this->paginas('/lotes', 'lotes', []);
    }

    /**
     * Lee el lote cada $intervalo segundos hasta que termina (completado o cancelado).
     *
     * @param ?callable(array<string, mixed>): void $alAvanzar recibe el lote en cada lectura
     * @param ?float $hasta microtime(true) en que dejar de esperar
     * @return array<string, mixed>
     */
    public function esperarLote(string $loteId, float $intervalo = 2.0, ?callable $alAvanzar = null, ?float $hasta = null): array
    {
        while (true) {
            $lote = $this->lote($loteId);
            if ($alAvanzar !== null) {
                $alAvanzar($lote);
            }
            if (in_array($lote['estado'], self::LOTE_TERMINADO, true)) {
                return $lote;
            }
            if ($hasta !== null && microtime(true) > $hasta) {
                throw new \RuntimeException(sprintf('el lote %s sigue %s', $loteId, $lote['estado']));
            }
            usleep((int) round($intervalo * 1_000_000));
        }
    }

    /** GET /lotes/{id}/resultados en JSON por línea, un resultado a la vez. @return \Generator<array<string, mixed>> */
    public function resultadosLote(string $loteId): \Generator
    {
        $texto = $this->enviar('GET', '/lotes/' . rawurlencode($loteId) . '/resultados', aceptar: 'application/x-ndjson')['texto'];
        foreach (preg_split('/\r?\n/', $texto) ?: [] as $linea) {
            if (trim($linea) !== '') {
                yield json_decode($linea, true, 512, JSON_THROW_ON_ERROR);
            }
        }
    }

    public function resultadosLoteCsv(string $loteId): string
    {
        return $this->enviar('GET', '/lotes/' . rawurlencode($loteId) . '/resultados', aceptar: 'text/csv')['texto'];
    }

    // Vigilancias

    /** @param list<string> $nits @return array<string, mixed> */
    public function crearVigilancia(string $nombre, string $catalogo, string $frecuencia, array $nits, bool $constancias = false, ?string $idempotencyKey = null): array
    {
        $cuerpo = ['nombre' => $nombre, 'catalogo' => $catalogo, 'frecuencia' => $frecuencia, 'nits' => $nits];
        if ($constancias) {
            $cuerpo['constancias'] = true;
        }
        return $this->enviar('POST', '/vigilancias', $cuerpo, ['idempotency-key' => $idempotencyKey ?? self::nuevaClave()])['body'];
    }

    /** @return \Generator<array<string, mixed>> */
    public function vigilancias(): \Generator
    {
        return $this->paginas('/vigilancias', 'vigilancias', []);
    }

    /** @return array<string, mixed> */
    public function vigilancia(string $vigilanciaId): array
    {
        return $this->enviar('GET', '/vigilancias/' . rawurlencode($vigilanciaId))['body'];
    }

    /**
     * PATCH /vigilancias/{id}.
     *
     * @param array<string, mixed> $cambio nombre, frecuencia, estado, agregar_nits, quitar_nits o constancias
     * @return array<string, mixed>
     */
    public function modificarVigilancia(string $vigilanciaId, array $cambio): array
    {
        return $this->enviar('PATCH', '/vigilancias/' . rawurlencode($vigilanciaId), $cambio)['body'];
    }

    public function eliminarVigilancia(string $vigilanciaId): void
    {
        $this->enviar('DELETE', '/vigilancias/' . rawurlencode($vigilanciaId));
    }

    /** @return \Generator<array<string, mixed>> */
    public function cambiosVigilancia(string $vigilanciaId): \Generator
    {
        return $this->paginas('/vigilancias/' . rawurlencode($vigilanciaId) . '/cambios', 'cambios', []);
    }

    // El transporte

    /** @param array<string, mixed> $cuerpo */
    private function consultar(string $ruta, array $cuerpo, bool $constancia, ?string $idempotencyKey, bool $catalogo): Respuesta
    {
        // Fijada antes del primer intento: cada reintento de esta llamada es la misma llamada, cobrada una vez.
        $clave = $catalogo ? ($idempotencyKey ?? self::nuevaClave()) : null;
        $cabeceras = [];
        if ($clave !== null) {
            $cabeceras['idempotency-key'] = $clave;
        }
        if ($constancia) {
            $cabeceras['x-constancia'] = 'true';
        }
        $recibida = $this->enviar('POST', $ruta, $cuerpo, $cabeceras);
        $h = $recibida['cabeceras'];
        return new Respuesta(
            is_array($recibida['body']) ? $recibida['body'] : [],
            $recibida['status'],
            $h['x-request-id'] ?? null,
            $clave,
            ($h['idempotency-replayed'] ?? null) === 'true',
            $constancia ? self::constancia($h) : null,
            $recibida['intentos'],
        );
    }

    /** @param array<string, string|null> $filtros @return \Generator<array<string, mixed>> */
    private function paginas(string $ruta, string $campo, array $filtros): \Generator
    {
        $cursor = null;
        do {
            $pagina = $this->enviar('GET', $ruta, consulta: $filtros + ['cursor' => $cursor])['body'];
            foreach ($pagina[$campo] ?? [] as $elemento) {
                yield $elemento;
            }
            $cursor = $pagina['siguiente'] ?? null;
        } while ($cursor !== null && $cursor !== '');
    }

    /**
     * @param array<string, string> $cabeceras
     * @param array<string, mixed> $consulta
     * @return array{status: int, body: mixed, texto: string, cabeceras: array<string, string>, intentos: int}
     */
    private function enviar(string $metodo, string $ruta, mixed $cuerpo = null, array $cabeceras = [], array $consulta = [], string $aceptar = 'application/json'): array
    {
        $url = $this->baseUrl . $ruta;
        $parametros = array_filter($consulta, static fn ($valor) => $valor !== null);
        if ($parametros !== []) {
            $url .= '?' . http_build_query($parametros, '', '&', PHP_QUERY_RFC3986);
        }
        $todas = ['x-integracion-login' => $this->login, 'x-integracion-token' => $this->token, 'accept' => $aceptar] + $cabeceras;
        $datos = null;
        if ($cuerpo !== null) {
            $datos = json_encode($cuerpo, JSON_UNESCAPED_UNICODE | JSON_UNESCAPED_SLASHES | JSON_THROW_ON_ERROR);
            $todas['content-type'] = 'application/json';
        }
        for ($intento = 1; ; $intento++) {
            $ultimo = $intento > $this->reintentos;
            try {
                $http = $this->transporte->enviar($metodo, $url, $todas, $datos, $this->tiempoDeEspera);
            } catch (FallaDeRed $falla) {
                // Sin respuesta: la solicitud pudo llegar o no. Enviada otra vez con su clave, cuenta una vez.
                if ($ultimo) {
                    $error = new SinRespuesta(sprintf('Sin respuesta de %s: %s', $ruta, $falla->getMessage()), 0, null, null, $falla);
                    $error->intentos = $intento;
                    throw $error;
                }
                $this->esperar($intento);
                continue;
            }
            $body = $http->cuerpo;
            if (str_contains($http->cabeceras['content-type'] ?? '', 'application/json')) {
                try {
                    $body = json_decode($http->cuerpo, true, 512, JSON_THROW_ON_ERROR);
                } catch (\JsonException) {
                    $body = $http->cuerpo;
                }
            }
            if ($http->status >= 200 && $http->status < 300) {
                return ['status' => $http->status, 'body' => $body, 'texto' => $http->cuerpo, 'cabeceras' => $http->cabeceras, 'intentos' => $intento];
            }
            $error = ErrorDeConsulta::de($http->status, $http->cabeceras['x-request-id'] ?? null, $body, $http->cabeceras);
            $error->intentos = $intento;
            if (!$error instanceof ServicioNoDisponible || $ultimo) {
                throw $error;
            }
            $this->esperar($intento);
        }
    }

    /** Espera exponencial con azar completo antes del reintento número $intento. */
    private function esperar(int $intento): void
    {
        $tope = min($this->esperaMaxima, $this->esperaBase * 2 ** ($intento - 1));
        usleep((int) round($tope * (mt_rand(0, 1_000_000) / 1_000_000) * 1_000_000));
    }

    /** @return array<string, string> */
    private static function identificador(?string $nit, ?string $cui): array
    {
        return array_filter(['nit' => $nit, 'cui' => $cui], static fn ($valor) => $valor !== null);
    }

    /** @param array<string, string> $cabeceras @return array<string, string> */
    private static function constancia(array $cabeceras): array
    {
        if (($cabeceras['x-constancia-id'] ?? '') !== '' && ($cabeceras['x-constancia-url'] ?? '') !== '') {
            return ['id' => $cabeceras['x-constancia-id'], 'url' => $cabeceras['x-constancia-url']];
        }
        return ['motivo' => $cabeceras['x-constancia-motivo'] ?? 'no-disponible'];
    }

    private static function nuevaClave(): string
    {
        $bytes = random_bytes(16);
        $bytes[6] = chr((ord($bytes[6]) & 0x0f) | 0x40);
        $bytes[8] = chr((ord($bytes[8]) & 0x3f) | 0x80);
        return vsprintf('%s%s-%s-%s-%s-%s%s%s', str_split(bin2hex($bytes), 4));
    }
}
