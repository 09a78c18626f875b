<?php
// The shared client scenario, in PHP: run by tests/clients/php-client.test.ts from a directory
// where only the Composer package built from clients/php is installed. Each step prints one JSON
// line of what a user would notice; the test asserts it and the app's ledger.

declare(strict_types=1);

require getcwd() . '/vendor/autoload.php';

use PasarelaContribuyentes as p;

$datos = json_decode($argv[2], true, 512, JSON_THROW_ON_ERROR);

function cliente(array $quien, ?string $token = null, ?p\Transporte $transporte = null): p\ClienteConsultas
{
    global $datos;
    return new p\ClienteConsultas($datos['base_url'], $quien['login'], $token ?? $quien['token'], esperaBase: 0.01, transporte: $transporte);
}

function causa(callable $llamada): ?array
{
    try {
        $llamada();
    } catch (p\ErrorDeConsulta $error) {
        return ['tipo' => (new ReflectionClass($error))->getShortName(), 'status' => $error->status, 'request_id' => $error->requestId, 'intentos' => $error->intentos];
    }
    return null;
}

/** Each attempt's Idempotency-Key, as the default transport sends it. */
final class Contando implements p\Transporte
{
    public array $enviadas = [];
    private p\TransporteCurl $curl;

    public function __construct()
    {
        $this->curl = new p\TransporteCurl();
    }

    public function enviar(string $metodo, string $url, array $cabeceras, ?string $cuerpo, float $tiempoDeEspera): p\RespuestaHttp
    {
        $this->enviadas[] = $cabeceras['idempotency-key'] ?? null;
        return $this->curl->enviar($metodo, $url, $cabeceras, $cuerpo, $tiempoDeEspera);
    }
}

$pasos = [
    'consultas' => function () use ($datos) {
        $c = cliente($datos['main']);
        $nit = $datos['nit'];
        $renap = $c->renap($datos['cui']);
        $respuestas = [$c->rtuNits([$nit]), $c->cuiNit(nit: $nit), $c->rtu(nit: $nit), $c->omisos(nit: $nit)];
        return [
            'renap' => $renap->body['data']['cui'],
            'request_id' => $renap->requestId,
            'estados' => array_map(fn ($r) => $r->status, $respuestas),
            'con_data' => array_map(fn ($r) => array_key_exists('data', $r->body), $respuestas),
            'claves' => array_map(fn ($r) => $r->idempotencyKey, $respuestas),
            'intentos' => array_map(fn ($r) => $r->intentos, $respuestas),
        ];
    },
    'errores' => function () use ($datos) {
        $nit = $datos['nit'];
        return [
            'clave_equivocada' => causa(fn () => cliente($datos['main'], 'tlk_no-es-el-token')->cuiNit(nit: $nit)),
            'catalogo_apagado' => causa(fn () => cliente($datos['disabled'])->cuiNit(nit: $nit)),
            'registro_apagado' => causa(fn () => cliente($datos['disabled'])->renap($datos['cui'])),
            'sin_saldo' => causa(fn () => cliente($datos['broke'])->omisos(nit: $nit)),
            'no_encontrado' => causa(fn () => cliente($datos['main'])->omisos(nit: $datos['unknown_nit'])),
            'sin_identificador' => causa(fn () => cliente($datos['main'])->omisos()),
        ];
    },
    'reintento' => function () use ($datos) {
        $contando = new Contando();
        $r = cliente($datos['main'], transporte: $contando)->omisos(nit: $datos['nit']);
        return ['status' => $r->status, 'intentos' => $r->intentos, 'clave' => $r->idempotencyKey, 'enviadas' => $contando->enviadas];
    },
    'limite' => function () use ($datos) {
        $c = cliente($datos['limited']);
        for ($i = 0; $i < 40; $i++) {
            $encontrado = causa(fn () => $c->cuiNit(nit: $datos['nit']));
            if ($encontrado !== null) {
                return $encontrado;
            }
        }
        return null;
    },
    'lote' => function () use ($datos) {
        $c = cliente($datos['main']);
        $identificadores = [$datos['nit'], $datos['unknown_nit'], 'no-es-nit'];
        $creado = $c->crearLote('omisos', $identificadores, idempotencyKey: 'lote-php');
        $otraVez = $c->crearLote('omisos', $identificadores, idempotencyKey: 'lote-php');
        $vistos = [];
        $terminado = $c->esperarLote($creado['id'], 1.0, function (array $lote) use (&$vistos) {
            $vistos[] = $lote['estado'];
        }, microtime(true) + 60);
        return [
            'mismo' => $creado['id'] === $otraVez['id'],
            'estado' => $terminado['estado'],
            'conteos' => $terminado['conteos'],
            'ultimo_visto' => end($vistos),
            'filas' => array_map(fn ($fila) => $fila['estado'], iterator_to_array($c->resultadosLote($creado['id']), false)),
            'csv' => explode("\n", $c->resultadosLoteCsv($creado['id']))[0],
            'listado' => in_array($creado['id'], array_map(fn ($l) => $l['id'], iterator_to_array($c->lotes(), false)), true),
        ];
    },
    'vigilancia' => function () use ($datos) {
        $c = cliente($datos['main']);
        $creada = $c->crearVigilancia('Proveedores', 'omisos', 'mensual', [$datos['nit']]);
        $listada = in_array($creada['id'], array_map(fn ($v) => $v['id'], iterator_to_array($c->vigilancias(), false)), true);
        $cambiada = $c->modificarVigilancia($creada['id'], ['nombre' => 'Proveedores 2027', 'estado' => 'en_pausa']);
        $cambios = iterator_to_array($c->cambiosVigilancia($creada['id']), false);
        $c->eliminarVigilancia($creada['id']);
        return ['listada' => $listada, 'nombre' => $cambiada['nombre'], 'estado' => $cambiada['estado'], 'cambios' => $cambios, 'despues' => causa(fn () => $c->vigilancia($creada['id']))];
    },
    'paginas' => function () use ($datos) {
        $ids = array_map(fn ($m) => $m['id'], iterator_to_array(cliente($datos['paged'])->movimientos(), false));
        return ['ids' => $ids, 'saldo' => cliente($datos['paged'])->cuenta()['saldo_centavos']];
    },
    'aviso' => function () use ($datos) {
        $a = $datos['aviso'];
        return [
            'valido' => p\Avisos::verificar($a['secreto'], $a['cuerpo'], $a['fecha'], $a['firma']),
            'alterado' => p\Avisos::verificar($a['secreto'], $a['cuerpo'] . ' ', $a['fecha'], $a['firma']),
            'otro_secreto' => p\Avisos::verificar('whsec_otro', $a['cuerpo'], $a['fecha'], $a['firma']),
            'viejo' => p\Avisos::verificar($a['secreto'], $a['cuerpo'], $a['fecha'], $a['firma'], ahora: (int) $a['fecha'] + 600),
        ];
    },
    // Each answer's cause, as the library decides it from status, body and headers alone.
    'causas' => fn () => ['tipos' => array_map(
        fn ($r) => (new ReflectionClass(p\ErrorDeConsulta::de($r['status'], null, $r['body'], $r['headers'])))->getShortName(),
        $datos['respuestas'],
    )],
    'obligatorios' => function () {
        $problemas = [];
        foreach ([['', 'a', 'b'], ['https://x/api', 'a', '']] as $argumentos) {
            try {
                new p\ClienteConsultas(...$argumentos);
            } catch (InvalidArgumentException $error) {
                $problemas[] = $error->getMessage();
            }
        }
        return ['problemas' => $problemas, 'tiempo_de_espera' => p\ClienteConsultas::TIEMPO_DE_ESPERA];
    },
];

echo json_encode($pasos[$argv[1]](), JSON_UNESCAPED_UNICODE | JSON_UNESCAPED_SLASHES | JSON_THROW_ON_ERROR), "\n";
