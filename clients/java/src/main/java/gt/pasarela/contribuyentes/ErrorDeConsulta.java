package gt.pasarela.contribuyentes;

import com.fasterxml.jackson.databind.JsonNode;
import java.lang.reflect.Constructor;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * Toda respuesta que la pasarela no resolvió, con lo necesario para reportarla. Un estado no dice la
 * causa: los dos 401, los dos 402, los tres 403 y los tres 429 solo se distinguen por el mensaje, así
 * que cada causa se decide aquí, una vez, por estado y mensaje (la tabla se genera de los mensajes de
 * la pasarela: {@link Mensajes}). Cada causa es una subclase: {@code catch (ErrorDeConsulta.SaldoInsuficiente e)}.
 */
public class ErrorDeConsulta extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final int status;
    private final String requestId;
    private final transient Object body;
    private int intentos = 1;

    public ErrorDeConsulta(String mensaje, int status, String requestId, Object body) {
        this(mensaje, status, requestId, body, null);
    }

    public ErrorDeConsulta(String mensaje, int status, String requestId, Object body, Throwable causa) {
        super(mensaje, causa);
        this.status = status;
        this.requestId = requestId;
        this.body = body;
    }

    /** El estado HTTP (0 si no llegó respuesta). */
    public int getStatus() { return status; }

    /** El x-request-id de la respuesta: cítelo a soporte. null si no llegó respuesta. */
    public String getRequestId() { return requestId; }

    /** El cuerpo tal como llegó: un {@link JsonNode} si era JSON, si no el texto. */
    public Object getBody() { return body; }

    /** Cuántos intentos tomó (más de 1 si se reintentó un 502 o una conexión fallida). */
    public int getIntentos() { return intentos; }

    void setIntentos(int intentos) { this.intentos = intentos; }

    /** El error del contrato para una respuesta que no es un éxito (cabeceras con nombres en minúsculas). */
    public static ErrorDeConsulta de(int status, String requestId, Object body, Map<String, String> cabeceras) {
        String mensaje = mensajeDe(body);
        // El limitador global responde con su propio cuerpo, no con el JSON de la API: mire el Content-Type.
        if (status == 429 && !cabeceras.getOrDefault("content-type", "").contains("application/json")) {
            return new LimiteGlobalPorIp(body instanceof String texto && !texto.isEmpty() ? texto : "Límite global por IP", status, requestId, body);
        }
        if (status == 400 && "idempotency-key-reused".equals(cabeceras.get("x-motivo-rechazo"))) {
            return new ClaveDeIdempotenciaReusada(mensaje == null ? "" : mensaje, status, requestId, body);
        }
        String causa = mensaje == null ? null : Mensajes.CAUSA_POR_MENSAJE.get(mensaje);
        if (causa == null) causa = Mensajes.CAUSA_POR_ESTADO.get(status);
        String texto = mensaje == null ? "HTTP " + status : mensaje;
        Constructor<? extends ErrorDeConsulta> tipo = causa == null ? null : POR_CAUSA.get(causa);
        if (tipo == null) return new ErrorDeConsulta(texto, status, requestId, body);
        try {
            return tipo.newInstance(texto, status, requestId, body);
        } catch (ReflectiveOperationException imposible) {
            throw new IllegalStateException(imposible);
        }
    }

    /** Cada causa de la tabla generada, con la subclase de su nombre: una causa sin ella hace fallar la carga de esta clase (y las pruebas de la librería), nunca en silencio. */
    private static final Map<String, Constructor<? extends ErrorDeConsulta>> POR_CAUSA = new HashMap<>();

    static {
        Set<String> causas = new HashSet<>(Mensajes.CAUSA_POR_MENSAJE.values());
        causas.addAll(Mensajes.CAUSA_POR_ESTADO.values());
        for (String causa : causas) {
            try {
                Class<? extends ErrorDeConsulta> clase = Class.forName(ErrorDeConsulta.class.getName() + "$" + causa).asSubclass(ErrorDeConsulta.class);
                POR_CAUSA.put(causa, clase.getConstructor(String.class, int.class, String.class, Object.class));
            } catch (ReflectiveOperationException sinClase) {
                throw new ExceptionInInitializerError("la causa " + causa + " de Mensajes no tiene su clase en ErrorDeConsulta");
            }
        }
    }

    private static String mensajeDe(Object body) {
        if (body instanceof JsonNode nodo && nodo.isObject()) {
            for (String campo : new String[] {"message", "error"}) {
                if (nodo.path(campo).isTextual()) return nodo.get(campo).asText();
            }
        }
        return null;
    }

    /** 400: falta un identificador que se pueda usar, o la solicitud está mal formada. */
    public static class SolicitudNoValida extends ErrorDeConsulta {
        private static final long serialVersionUID = 1L;
        public SolicitudNoValida(String m, int s, String r, Object b) { super(m, s, r, b); }
    }

    /** 400: la fuente rechazó los datos de la consulta. */
    public static class DatosRechazadosPorLaFuente extends ErrorDeConsulta {
        private static final long serialVersionUID = 1L;
        public DatosRechazadosPorLaFuente(String m, int s, String r, Object b) { super(m, s, r, b); }
    }

    /** 400: la Idempotency-Key ya se usó en 24 horas con otro cuerpo u otra ruta. */
    public static class ClaveDeIdempotenciaReusada extends ErrorDeConsulta {
        private static final long serialVersionUID = 1L;
        public ClaveDeIdempotenciaReusada(String m, int s, String r, Object b) { super(m, s, r, b); }
    }

    /** 401: las dos cabeceras de credenciales no corresponden a ninguna integración. */
    public static class IntegracionNoEncontrada extends ErrorDeConsulta {
        private static final long serialVersionUID = 1L;
        public IntegracionNoEncontrada(String m, int s, String r, Object b) { super(m, s, r, b); }
    }

    /** 401: la fuente rechazó la autenticación del servicio: escriba a soporte. */
    public static class AutenticacionDelServicioRechazada extends ErrorDeConsulta {
        private static final long serialVersionUID = 1L;
        public AutenticacionDelServicioRechazada(String m, int s, String r, Object b) { super(m, s, r, b); }
    }

    /** 402: el saldo prepagado no paga la consulta; no corrió ni se cobró. */
    public static class SaldoInsuficiente extends ErrorDeConsulta {
        private static final long serialVersionUID = 1L;
        public SaldoInsuficiente(String m, int s, String r, Object b) { super(m, s, r, b); }
    }

    /** 402: se agotó el saldo del propio servicio con la fuente: escriba a soporte. */
    public static class SaldoDelServicioAgotado extends ErrorDeConsulta {
        private static final long serialVersionUID = 1L;
        public SaldoDelServicioAgotado(String m, int s, String r, Object b) { super(m, s, r, b); }
    }

    /** 403: la solicitud no llevó credenciales de integración. */
    public static class CredencialesRequeridas extends ErrorDeConsulta {
        private static final long serialVersionUID = 1L;
        public CredencialesRequeridas(String m, int s, String r, Object b) { super(m, s, r, b); }
    }

    /** 403: esta consulta no está habilitada para su integración. */
    public static class ConsultaNoHabilitada extends ErrorDeConsulta {
        private static final long serialVersionUID = 1L;
        public ConsultaNoHabilitada(String m, int s, String r, Object b) { super(m, s, r, b); }
    }

    /** 403: la fuente no permite este tipo de consulta al servicio: escriba a soporte. */
    public static class ConsultaNegadaPorLaFuente extends ErrorDeConsulta {
        private static final long serialVersionUID = 1L;
        public ConsultaNegadaPorLaFuente(String m, int s, String r, Object b) { super(m, s, r, b); }
    }

    /** 404: la fuente no tiene información para esos datos ahora (no que el contribuyente no exista). */
    public static class NoEncontrado extends ErrorDeConsulta {
        private static final long serialVersionUID = 1L;
        public NoEncontrado(String m, int s, String r, Object b) { super(m, s, r, b); }
    }

    /** 429: el límite por minuto de su integración en esta ruta. No lo reintente solo. */
    public static class LimitePorMinuto extends ErrorDeConsulta {
        private static final long serialVersionUID = 1L;
        public LimitePorMinuto(String m, int s, String r, Object b) { super(m, s, r, b); }
    }

    /** 429: la fuente está limitando las consultas. */
    public static class FuenteLimitando extends ErrorDeConsulta {
        private static final long serialVersionUID = 1L;
        public FuenteLimitando(String m, int s, String r, Object b) { super(m, s, r, b); }
    }

    /** 429: el límite global por dirección IP (100 cada 15 minutos), con el cuerpo propio del limitador. */
    public static class LimiteGlobalPorIp extends ErrorDeConsulta {
        private static final long serialVersionUID = 1L;
        public LimiteGlobalPorIp(String m, int s, String r, Object b) { super(m, s, r, b); }
    }

    /** 500: una falla que la pasarela no manejó, o (registros) la falla al consultar el registro. */
    public static class ErrorInterno extends ErrorDeConsulta {
        private static final long serialVersionUID = 1L;
        public ErrorInterno(String m, int s, String r, Object b) { super(m, s, r, b); }
    }

    /** 502: la fuente no respondió a tiempo o falló: no se resolvió ni se cobró (el cliente ya reintentó). */
    public static class ServicioNoDisponible extends ErrorDeConsulta {
        private static final long serialVersionUID = 1L;
        public ServicioNoDisponible(String m, int s, String r, Object b) { super(m, s, r, b); }
    }

    /** No llegó respuesta (una falla de red o el tiempo de espera) después de cada reintento. */
    public static class SinRespuesta extends ErrorDeConsulta {
        private static final long serialVersionUID = 1L;
        public SinRespuesta(String m, Throwable causa) { super(m, 0, null, null, causa); }
    }
}
