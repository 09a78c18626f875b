// The shared client scenario, in Java: run by tests/clients/java-client.test.ts with the jar built
// from clients/java (and Jackson's) as its only class path, from a directory of its own. Each step
// prints one JSON line of what a user would notice; the test asserts it and the app's ledger.
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import gt.pasarela.contribuyentes.Avisos;
import gt.pasarela.contribuyentes.ClienteConsultas;
import gt.pasarela.contribuyentes.ClienteConsultas.Identificador;
import gt.pasarela.contribuyentes.ErrorDeConsulta;
import gt.pasarela.contribuyentes.Respuesta;
import gt.pasarela.contribuyentes.Transporte;
import gt.pasarela.contribuyentes.TransporteHttp;
import gt.pasarela.contribuyentes.modelos.Cuenta;
import gt.pasarela.contribuyentes.modelos.OmisosRespuesta;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.StreamSupport;

public class Escenario {
    static JsonNode datos;

    static ClienteConsultas cliente(String quien) { return cliente(quien, null, null); }

    static ClienteConsultas cliente(String quien, String token, Transporte transporte) {
        ClienteConsultas.Opciones opciones = new ClienteConsultas.Opciones().esperaBase(Duration.ofMillis(10));
        if (transporte != null) opciones.transporte(transporte);
        return new ClienteConsultas(datos.get("base_url").asText(), datos.get(quien).get("login").asText(), token != null ? token : datos.get(quien).get("token").asText(), opciones);
    }

    static Map<String, Object> causa(Runnable llamada) {
        try {
            llamada.run();
        } catch (ErrorDeConsulta error) {
            Map<String, Object> vista = new LinkedHashMap<>();
            vista.put("tipo", error.getClass().getSimpleName());
            vista.put("status", error.getStatus());
            vista.put("request_id", error.getRequestId());
            vista.put("intentos", error.getIntentos());
            return vista;
        }
        return null;
    }

    static List<JsonNode> todos(Iterable<JsonNode> elementos) {
        return StreamSupport.stream(elementos.spliterator(), false).toList();
    }

    static Object consultas() {
        ClienteConsultas c = cliente("main");
        String nit = datos.get("nit").asText();
        Respuesta renap = c.renap(datos.get("cui").asText());
        List<Respuesta> respuestas = List.of(c.rtuNits(List.of(nit)), c.cuiNit(Identificador.nit(nit)), c.rtu(Identificador.nit(nit)), c.omisos(Identificador.nit(nit)));
        Map<String, Object> vista = new LinkedHashMap<>();
        vista.put("renap", renap.getBody().get("data").get("cui").asText());
        vista.put("request_id", renap.getRequestId());
        vista.put("estados", respuestas.stream().map(Respuesta::getStatus).toList());
        vista.put("con_data", respuestas.stream().map(r -> r.getBody().has("data")).toList());
        vista.put("claves", respuestas.stream().map(Respuesta::getIdempotencyKey).toList());
        vista.put("intentos", respuestas.stream().map(Respuesta::getIntentos).toList());
        // The generated models read the same answers.
        vista.put("modelo_omisos", respuestas.get(3).como(OmisosRespuesta.class).getData().getNit());
        return vista;
    }

    static Object errores() {
        String nit = datos.get("nit").asText();
        Map<String, Object> vista = new LinkedHashMap<>();
        vista.put("clave_equivocada", causa(() -> cliente("main", "tlk_no-es-el-token", null).cuiNit(Identificador.nit(nit))));
        vista.put("catalogo_apagado", causa(() -> cliente("disabled").cuiNit(Identificador.nit(nit))));
        vista.put("registro_apagado", causa(() -> cliente("disabled").renap(datos.get("cui").asText())));
        vista.put("sin_saldo", causa(() -> cliente("broke").omisos(Identificador.nit(nit))));
        vista.put("no_encontrado", causa(() -> cliente("main").omisos(Identificador.nit(datos.get("unknown_nit").asText()))));
        vista.put("sin_identificador", causa(() -> cliente("main").omisos(Identificador.ninguno())));
        return vista;
    }

    static Object reintento() {
        List<String> enviadas = new ArrayList<>();
        TransporteHttp http = new TransporteHttp();
        Transporte contando = (metodo, url, cabeceras, cuerpo, tiempo) -> {
            enviadas.add(cabeceras.get("idempotency-key"));
            return http.enviar(metodo, url, cabeceras, cuerpo, tiempo);
        };
        Respuesta r = cliente("main", null, contando).omisos(Identificador.nit(datos.get("nit").asText()));
        return Map.of("status", r.getStatus(), "intentos", r.getIntentos(), "clave", r.getIdempotencyKey(), "enviadas", enviadas);
    }

    static Object limite() {
        ClienteConsultas c = cliente("limited");
        for (int i = 0; i < 40; i++) {
            Map<String, Object> encontrado = causa(() -> c.cuiNit(Identificador.nit(datos.get("nit").asText())));
            if (encontrado != null) return encontrado;
        }
        return null;
    }

    static Object lote() {
        ClienteConsultas c = cliente("main");
        List<String> identificadores = List.of(datos.get("nit").asText(), datos.get("unknown_nit").asText(), "no-es-nit");
        JsonNode creado = c.crearLote("omisos", identificadores, false, "lote-java");
        JsonNode otraVez = c.crearLote("omisos", identificadores, false, "lote-java");
        List<String> vistos = new ArrayList<>();
        String id = creado.get("id").asText();
        JsonNode terminado = c.esperarLote(id, Duration.ofSeconds(1), lote -> vistos.add(lote.get("estado").asText()), Instant.now().plusSeconds(60));
        Map<String, Object> vista = new LinkedHashMap<>();
        vista.put("mismo", id.equals(otraVez.get("id").asText()));
        vista.put("estado", terminado.get("estado").asText());
        vista.put("conteos", terminado.get("conteos"));
        vista.put("ultimo_visto", vistos.get(vistos.size() - 1));
        vista.put("filas", c.resultadosLote(id).stream().map(fila -> fila.get("estado").asText()).toList());
        vista.put("csv", c.resultadosLoteCsv(id).split("\r?\n")[0]);
        vista.put("listado", todos(c.lotes()).stream().anyMatch(l -> l.get("id").asText().equals(id)));
        return vista;
    }

    static Object vigilancia() {
        ClienteConsultas c = cliente("main");
        JsonNode creada = c.crearVigilancia("Proveedores", "omisos", "mensual", List.of(datos.get("nit").asText()), false, null);
        String id = creada.get("id").asText();
        boolean listada = todos(c.vigilancias()).stream().anyMatch(v -> v.get("id").asText().equals(id));
        JsonNode cambiada = c.modificarVigilancia(id, Map.of("nombre", "Proveedores 2027", "estado", "en_pausa"));
        List<JsonNode> cambios = todos(c.cambiosVigilancia(id));
        c.eliminarVigilancia(id);
        Map<String, Object> vista = new LinkedHashMap<>();
        vista.put("listada", listada);
        vista.put("nombre", cambiada.get("nombre").asText());
        vista.put("estado", cambiada.get("estado").asText());
        vista.put("cambios", cambios);
        vista.put("despues", causa(() -> c.vigilancia(id)));
        return vista;
    }

    static Object paginas() {
        List<Long> ids = todos(cliente("paged").movimientos()).stream().map(m -> m.get("id").asLong()).toList();
        Cuenta cuenta = ClienteConsultas.como(cliente("paged").cuenta(), Cuenta.class);
        return Map.of("ids", ids, "saldo", cuenta.getSaldoCentavos());
    }

    static Object aviso() {
        JsonNode a = datos.get("aviso");
        String secreto = a.get("secreto").asText();
        byte[] cuerpo = a.get("cuerpo").asText().getBytes(StandardCharsets.UTF_8);
        String fecha = a.get("fecha").asText();
        String firma = a.get("firma").asText();
        long ahora = System.currentTimeMillis() / 1000;
        return Map.of(
            "valido", Avisos.verificar(secreto, cuerpo, fecha, firma),
            "alterado", Avisos.verificar(secreto, (a.get("cuerpo").asText() + " ").getBytes(StandardCharsets.UTF_8), fecha, firma),
            "otro_secreto", Avisos.verificar("whsec_otro", cuerpo, fecha, firma),
            "viejo", Avisos.verificar(secreto, cuerpo, fecha, firma, 300, Long.parseLong(fecha) + 600));
    }

    /** Each answer's cause, as the library decides it from status, body and headers alone. */
    static Object causas() {
        List<String> tipos = new ArrayList<>();
        for (JsonNode respuesta : datos.get("respuestas")) {
            JsonNode body = respuesta.get("body");
            Map<String, String> cabeceras = new LinkedHashMap<>();
            respuesta.get("headers").fields().forEachRemaining(cabecera -> cabeceras.put(cabecera.getKey(), cabecera.getValue().asText()));
            tipos.add(ErrorDeConsulta.de(respuesta.get("status").asInt(), null, body.isTextual() ? body.asText() : body, cabeceras).getClass().getSimpleName());
        }
        return Map.of("tipos", tipos);
    }

    static Object obligatorios() {
        List<String> problemas = new ArrayList<>();
        for (String[] argumentos : new String[][] {{"", "a", "b"}, {"https://x/api", "a", ""}}) {
            try {
                new ClienteConsultas(argumentos[0], argumentos[1], argumentos[2]);
            } catch (IllegalArgumentException error) {
                problemas.add(error.getMessage());
            }
        }
        return Map.of("problemas", problemas, "tiempo_de_espera", ClienteConsultas.TIEMPO_DE_ESPERA.toSeconds());
    }

    /**
     * One JVM for every step: each line on standard input is a step's name, a tab and its data (JSON);
     * each answer is one line on standard output, the step's view or {"falla": "..."}.
     */
    public static void main(String[] argumentos) throws Exception {
        ObjectMapper json = new ObjectMapper();
        BufferedReader entrada = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        for (String linea = entrada.readLine(); linea != null; linea = entrada.readLine()) {
            String[] partes = linea.split("\t", 2);
            Object vista;
            try {
                datos = json.readTree(partes[1]);
                vista = switch (partes[0]) {
                    case "consultas" -> consultas();
                    case "errores" -> errores();
                    case "reintento" -> reintento();
                    case "limite" -> limite();
                    case "lote" -> lote();
                    case "vigilancia" -> vigilancia();
                    case "paginas" -> paginas();
                    case "aviso" -> aviso();
                    case "causas" -> causas();
                    case "obligatorios" -> obligatorios();
                    default -> throw new IllegalArgumentException(partes[0]);
                };
            } catch (RuntimeException falla) {
                StringWriter traza = new StringWriter();
                falla.printStackTrace(new PrintWriter(traza));
                vista = Map.of("falla", traza.toString());
            }
            System.out.println(json.writeValueAsString(vista));
            System.out.flush();
        }
    }
}
