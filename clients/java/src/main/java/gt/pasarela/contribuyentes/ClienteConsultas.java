package gt.pasarela.contribuyentes;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Consumer;

/**
 * El cliente de la pasarela de consultas de contribuyentes (docs/clients.md). Lo que la generación no
 * puede decir, igual en cada lenguaje: el error del contrato por causa ({@link ErrorDeConsulta}),
 * reintentos solo donde el contrato dice que son seguros, una Idempotency-Key por consulta de catálogo
 * que se conserva en sus reintentos, y un tiempo de espera mayor que el tope de 30 segundos. Se puede
 * usar desde varios hilos a la vez.
 */
public final class ClienteConsultas {
    /** Por intento: más que el tope de 30 segundos del contrato. */
    public static final Duration TIEMPO_DE_ESPERA = Duration.ofSeconds(45);
    public static final int REINTENTOS = 3;

    /** Lo que se puede cambiar; todo tiene su valor por omisión. */
    public static final class Opciones {
        private Duration tiempoDeEspera = TIEMPO_DE_ESPERA;
        private int reintentos = REINTENTOS;
        private Duration esperaBase = Duration.ofMillis(500);
        private Duration esperaMaxima = Duration.ofSeconds(8);
        private Transporte transporte;

        public Opciones tiempoDeEspera(Duration valor) { tiempoDeEspera = valor; return this; }
        public Opciones reintentos(int valor) { reintentos = valor; return this; }
        /** El primer reintento espera al azar hasta esto, el siguiente hasta el doble… */
        public Opciones esperaBase(Duration valor) { esperaBase = valor; return this; }
        public Opciones esperaMaxima(Duration valor) { esperaMaxima = valor; return this; }
        public Opciones transporte(Transporte valor) { transporte = valor; return this; }
    }

    private final String baseUrl;
    private final String login;
    private final String token;
    private final Duration tiempoDeEspera;
    private final int reintentos;
    private final Duration esperaBase;
    private final Duration esperaMaxima;
    private final Transporte transporte;

    /** @param baseUrl la dirección de la API del ambiente (producción o desarrollo), por ejemplo https://…/api */
    public ClienteConsultas(String baseUrl, String login, String token) {
        this(baseUrl, login, token, new Opciones());
    }

    public ClienteConsultas(String baseUrl, String login, String token, Opciones opciones) {
        if (baseUrl == null || baseUrl.isEmpty()) throw new IllegalArgumentException("baseUrl es obligatoria: la dirección de la API del ambiente (producción o desarrollo)");
        if (login == null || login.isEmpty() || token == null || token.isEmpty()) throw new IllegalArgumentException("login y token son obligatorios: las dos credenciales de la integración");
        this.baseUrl = baseUrl.replaceAll("/+$", "");
        this.login = login;
        this.token = token;
        this.tiempoDeEspera = opciones.tiempoDeEspera;
        this.reintentos = opciones.reintentos;
        this.esperaBase = opciones.esperaBase;
        this.esperaMaxima = opciones.esperaMaxima;
        this.transporte = opciones.transporte != null ? opciones.transporte : new TransporteHttp();
    }

    // Las cinco consultas

    /** POST /renap/buscar-cui: el registro de personas por CUI. */
    public Respuesta renap(String cui) { return renap(cui, false); }

    public Respuesta renap(String cui, boolean constancia) {
        return consultar("/renap/buscar-cui", Map.of("cui", cui), constancia, null, false);
    }

    /** POST /rtu/nits: el RTU de hasta 50 NIT. */
    public Respuesta rtuNits(List<String> nits) { return rtuNits(nits, false); }

    public Respuesta rtuNits(List<String> nits, boolean constancia) {
        return consultar("/rtu/nits", Map.of("nits", nits), constancia, null, false);
    }

    /** POST /catalogos/cui-nit (se cobra). */
    public Respuesta cuiNit(Identificador identificador) { return cuiNit(identificador, false, null); }

    /** @param idempotencyKey la suya, o null para que la librería cree una */
    public Respuesta cuiNit(Identificador identificador, boolean constancia, String idempotencyKey) {
        return consultar("/catalogos/cui-nit", identificador.cuerpo(), constancia, idempotencyKey, true);
    }

    /** POST /catalogos/rtu (se cobra). */
    public Respuesta rtu(Identificador identificador) { return rtu(identificador, Map.of(), false, null); }

    /** @param opciones opciones del contrato como {@code Map.of("actualizado", true)} o {@code Map.of("date_of_birth", "dd/mm/aaaa")} */
    public Respuesta rtu(Identificador identificador, Map<String, Object> opciones, boolean constancia, String idempotencyKey) {
        Map<String, Object> cuerpo = new LinkedHashMap<>(identificador.cuerpo());
        cuerpo.putAll(opciones);
        return consultar("/catalogos/rtu", cuerpo, constancia, idempotencyKey, true);
    }

    /** POST /catalogos/omisos (se cobra). */
    public Respuesta omisos(Identificador identificador) { return omisos(identificador, false, null); }

    public Respuesta omisos(Identificador identificador, boolean constancia, String idempotencyKey) {
        return consultar("/catalogos/omisos", identificador.cuerpo(), constancia, idempotencyKey, true);
    }

    /** El NIT o el CUI de una consulta de catálogo. */
    public static final class Identificador {
        private final Map<String, Object> cuerpo;

        private Identificador(Map<String, Object> cuerpo) { this.cuerpo = cuerpo; }

        public static Identificador nit(String nit) { return new Identificador(Map.of("nit", nit)); }
        public static Identificador cui(String cui) { return new Identificador(Map.of("cui", cui)); }
        /** Sin identificador: la pasarela responde 400 (SolicitudNoValida). */
        public static Identificador ninguno() { return new Identificador(Map.of()); }

        Map<String, Object> cuerpo() { return cuerpo; }
    }

    /**
     * Un cuerpo leído como uno de los modelos generados del documento OpenAPI, por ejemplo
     * {@code ClienteConsultas.como(cliente.cuenta(), Cuenta.class)}. Los campos que el contrato agregue después se ignoran.
     */
    public static <T> T como(JsonNode cuerpo, Class<T> modelo) {
        try {
            return Json.MAPPER.treeToValue(cuerpo, modelo);
        } catch (JsonProcessingException error) {
            throw new IllegalArgumentException("el cuerpo no es un " + modelo.getSimpleName() + ": " + error.getOriginalMessage(), error);
        }
    }

    // Su cuenta

    /** GET /cuenta: saldo, tarifa, consultas habilitadas, límites y gasto (modelo: Cuenta). */
    public JsonNode cuenta() { return enviar("GET", "/cuenta", null, Map.of(), Map.of(), "application/json").body(); }

    /** GET /cuenta/movimientos, todas sus páginas, del más reciente al más antiguo (modelo: Movimiento). */
    public Iterable<JsonNode> movimientos() { return movimientos(null, null, null); }

    public Iterable<JsonNode> movimientos(String desde, String hasta, String tipo) {
        Map<String, String> filtros = new LinkedHashMap<>();
        filtros.put("desde", desde);
        filtros.put("hasta", hasta);
        filtros.put("tipo", tipo);
        return paginas("/cuenta/movimientos", "movimientos", filtros);
    }

    /** GET /consultas, todas sus páginas (filtros: consulta, estado, resultado, desde, hasta; modelo: ConsultaResumen). */
    public Iterable<JsonNode> consultas(Map<String, String> filtros) { return paginas("/consultas", "consultas", filtros); }

    /** GET /consultas/{request_id}: qué pasó con una solicitud. */
    public JsonNode consulta(String requestId) { return enviar("GET", "/consultas/" + segmento(requestId), null, Map.of(), Map.of(), "application/json").body(); }

    // Lotes

    /** POST /lotes: un lote, creado una vez aunque se reintente (una clave por llamada; modelo: Lote). */
    public JsonNode crearLote(String catalogo, List<String> identificadores, boolean constancias, String idempotencyKey) {
        Map<String, Object> cuerpo = new LinkedHashMap<>();
        cuerpo.put("catalogo", catalogo);
        cuerpo.put("identificadores", identificadores);
        if (constancias) cuerpo.put("constancias", true);
        return enviar("POST", "/lotes", cuerpo, Map.of("idempotency-key", idempotencyKey != null ? idempotencyKey : nuevaClave()), Map.of(), "application/json").body();
    }

    public JsonNode lote(String loteId) { return enviar("GET", "/lotes/" + segmento(loteId), null, Map.of(), Map.of(), "application/json").body(); }

    public Iterable<JsonNode> lotes() { return paginas("/lotes", "lotes", Map.of()); }

    /**
     * Lee el lote cada {@code intervalo} hasta que termina (completado o cancelado).
     *
     * @param alAvanzar recibe el lote en cada lectura, o null
     * @param hasta cuándo dejar de esperar (IllegalStateException), o null
     */
    public JsonNode esperarLote(String loteId, Duration intervalo, Consumer<JsonNode> alAvanzar, Instant hasta) {
        while (true) {
            JsonNode lote = lote(loteId);
            if (alAvanzar != null) alAvanzar.accept(lote);
            String estado = lote.path("estado").asText();
            if (estado.equals("completado") || estado.equals("cancelado")) return lote;
            if (hasta != null && Instant.now().isAfter(hasta)) throw new IllegalStateException("el lote " + loteId + " sigue " + estado);
            dormir(intervalo);
        }
    }

    /** GET /lotes/{id}/resultados en JSON por línea (modelo: LoteResultado). */
    public List<JsonNode> resultadosLote(String loteId) {
        String texto = enviar("GET", "/lotes/" + segmento(loteId) + "/resultados", null, Map.of(), Map.of(), "application/x-ndjson").texto();
        List<JsonNode> filas = new ArrayList<>();
        for (String linea : texto.split("\r?\n")) {
            if (linea.isBlank()) continue;
            try {
                filas.add(Json.MAPPER.readTree(linea));
            } catch (JsonProcessingException error) {
                throw new UncheckedIOException(error);
            }
        }
        return filas;
    }

    public String resultadosLoteCsv(String loteId) {
        return enviar("GET", "/lotes/" + segmento(loteId) + "/resultados", null, Map.of(), Map.of(), "text/csv").texto();
    }

    // Vigilancias

    /** POST /vigilancias (modelo: Vigilancia). */
    public JsonNode crearVigilancia(String nombre, String catalogo, String frecuencia, List<String> nits, boolean constancias, String idempotencyKey) {
        Map<String, Object> cuerpo = new LinkedHashMap<>();
        cuerpo.put("nombre", nombre);
        cuerpo.put("catalogo", catalogo);
        cuerpo.put("frecuencia", frecuencia);
        cuerpo.put("nits", nits);
        if (constancias) cuerpo.put("constancias", true);
        return enviar("POST", "/vigilancias", cuerpo, Map.of("idempotency-key", idempotencyKey != null ? idempotencyKey : nuevaClave()), Map.of(), "application/json").body();
    }

    public Iterable<JsonNode> vigilancias() { return paginas("/vigilancias", "vigilancias", Map.of()); }

    public JsonNode vigilancia(String vigilanciaId) { return enviar("GET", "/vigilancias/" + segmento(vigilanciaId), null, Map.of(), Map.of(), "application/json").body(); }

    /** PATCH /vigilancias/{id}: nombre, frecuencia, estado, agregar_nits, quitar_nits o constancias. */
    public JsonNode modificarVigilancia(String vigilanciaId, Map<String, Object> cambio) {
        return enviar("PATCH", "/vigilancias/" + segmento(vigilanciaId), cambio, Map.of(), Map.of(), "application/json").body();
    }

    public void eliminarVigilancia(String vigilanciaId) { enviar("DELETE", "/vigilancias/" + segmento(vigilanciaId), null, Map.of(), Map.of(), "application/json"); }

    /** Los cambios que encontró cada corrida (modelo: VigilanciaCambio). */
    public Iterable<JsonNode> cambiosVigilancia(String vigilanciaId) { return paginas("/vigilancias/" + segmento(vigilanciaId) + "/cambios", "cambios", Map.of()); }

    // El transporte

    private Respuesta consultar(String ruta, Map<String, ?> cuerpo, boolean constancia, String idempotencyKey, boolean catalogo) {
        // Fijada antes del primer intento: cada reintento de esta llamada es la misma llamada, cobrada una vez.
        String clave = catalogo ? (idempotencyKey != null ? idempotencyKey : nuevaClave()) : null;
        Map<String, String> cabeceras = new LinkedHashMap<>();
        if (clave != null) cabeceras.put("idempotency-key", clave);
        if (constancia) cabeceras.put("x-constancia", "true");
        Recibida recibida = enviar("POST", ruta, cuerpo, cabeceras, Map.of(), "application/json");
        Map<String, String> h = recibida.cabeceras();
        return new Respuesta(recibida.body(), recibida.status(), h.get("x-request-id"), clave, "true".equals(h.get("idempotency-replayed")), constancia ? constancia(h) : null, recibida.intentos());
    }

    private Iterable<JsonNode> paginas(String ruta, String campo, Map<String, String> filtros) {
        return () -> new Iterator<>() {
            private Iterator<JsonNode> pagina = List.<JsonNode>of().iterator();
            private String cursor;
            private boolean ultima;

            @Override
            public boolean hasNext() {
                while (!pagina.hasNext() && !ultima) {
                    Map<String, String> consulta = new LinkedHashMap<>(filtros);
                    consulta.put("cursor", cursor);
                    JsonNode leida = enviar("GET", ruta, null, Map.of(), consulta, "application/json").body();
                    pagina = leida.path(campo).elements();
                    cursor = leida.path("siguiente").isTextual() ? leida.get("siguiente").asText() : null;
                    ultima = cursor == null || cursor.isEmpty();
                }
                return pagina.hasNext();
            }

            @Override
            public JsonNode next() {
                if (!hasNext()) throw new NoSuchElementException();
                return pagina.next();
            }
        };
    }

    private record Recibida(int status, JsonNode body, String texto, Map<String, String> cabeceras, int intentos) {}

    private Recibida enviar(String metodo, String ruta, Object cuerpo, Map<String, String> cabeceras, Map<String, String> consulta, String aceptar) {
        StringBuilder url = new StringBuilder(baseUrl).append(ruta);
        char separador = '?';
        for (Map.Entry<String, String> parametro : consulta.entrySet()) {
            if (parametro.getValue() == null) continue;
            url.append(separador).append(URLEncoder.encode(parametro.getKey(), StandardCharsets.UTF_8)).append('=').append(URLEncoder.encode(parametro.getValue(), StandardCharsets.UTF_8));
            separador = '&';
        }
        Map<String, String> todas = new LinkedHashMap<>();
        todas.put("x-integracion-login", login);
        todas.put("x-integracion-token", token);
        todas.put("accept", aceptar);
        todas.putAll(cabeceras);
        byte[] datos = null;
        if (cuerpo != null) {
            try {
                datos = Json.MAPPER.writeValueAsBytes(cuerpo);
            } catch (JsonProcessingException error) {
                throw new IllegalArgumentException("el cuerpo no se puede escribir como JSON", error);
            }
            todas.put("content-type", "application/json");
        }
        for (int intento = 1; ; intento++) {
            boolean ultimo = intento > reintentos;
            Transporte.RespuestaHttp http;
            try {
                http = transporte.enviar(metodo, url.toString(), todas, datos, tiempoDeEspera);
            } catch (IOException falla) {
                // Sin respuesta: la solicitud pudo llegar o no. Enviada otra vez con su clave, cuenta una vez.
                if (ultimo) {
                    ErrorDeConsulta.SinRespuesta error = new ErrorDeConsulta.SinRespuesta("Sin respuesta de " + ruta + ": " + falla, falla);
                    error.setIntentos(intento);
                    throw error;
                }
                esperar(intento);
                continue;
            } catch (InterruptedException interrumpido) {
                Thread.currentThread().interrupt();
                throw new ErrorDeConsulta.SinRespuesta("Interrumpido esperando " + ruta, interrumpido);
            }
            String texto = new String(http.cuerpo(), StandardCharsets.UTF_8);
            JsonNode json = MissingNode.getInstance();
            Object body = texto;
            if (http.cabeceras().getOrDefault("content-type", "").contains("application/json")) {
                try {
                    json = Json.MAPPER.readTree(texto);
                    body = json;
                } catch (JsonProcessingException noEsJson) {
                    body = texto;
                }
            }
            if (http.status() >= 200 && http.status() < 300) return new Recibida(http.status(), json, texto, http.cabeceras(), intento);
            ErrorDeConsulta error = ErrorDeConsulta.de(http.status(), http.cabeceras().get("x-request-id"), body, http.cabeceras());
            error.setIntentos(intento);
            if (!(error instanceof ErrorDeConsulta.ServicioNoDisponible) || ultimo) throw error;
            esperar(intento);
        }
    }

    /** Espera exponencial con azar completo antes del reintento número {@code intento}. */
    private void esperar(int intento) {
        long tope = Math.min(esperaMaxima.toMillis(), esperaBase.toMillis() << Math.min(intento - 1, 20));
        dormir(Duration.ofMillis(tope == 0 ? 0 : ThreadLocalRandom.current().nextLong(tope + 1)));
    }

    private static void dormir(Duration cuanto) {
        try {
            Thread.sleep(cuanto.toMillis());
        } catch (InterruptedException interrumpido) {
            Thread.currentThread().interrupt();
            throw new ErrorDeConsulta.SinRespuesta("Interrumpido mientras esperaba", interrumpido);
        }
    }

    private static Map<String, String> constancia(Map<String, String> cabeceras) {
        String id = cabeceras.get("x-constancia-id");
        String url = cabeceras.get("x-constancia-url");
        if (id != null && !id.isEmpty() && url != null && !url.isEmpty()) return Map.of("id", id, "url", url);
        return Map.of("motivo", cabeceras.getOrDefault("x-constancia-motivo", "no-disponible"));
    }

    private static String segmento(String valor) {
        return URLEncoder.encode(valor, StandardCharsets.UTF_8).replace("+", "%20");
    }

    private static String nuevaClave() {
        return UUID.randomUUID().toString();
    }
}
