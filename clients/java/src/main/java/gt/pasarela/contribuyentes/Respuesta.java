package gt.pasarela.contribuyentes;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Map;
import java.util.Optional;

/** Una respuesta de consulta: el cuerpo del contrato y lo que dijeron sus cabeceras. */
public final class Respuesta {
    private final JsonNode body;
    private final int status;
    private final String requestId;
    private final String idempotencyKey;
    private final boolean repetida;
    private final Map<String, String> constancia;
    private final int intentos;

    Respuesta(JsonNode body, int status, String requestId, String idempotencyKey, boolean repetida, Map<String, String> constancia, int intentos) {
        this.body = body;
        this.status = status;
        this.requestId = requestId;
        this.idempotencyKey = idempotencyKey;
        this.repetida = repetida;
        this.constancia = constancia;
        this.intentos = intentos;
    }

    /** El cuerpo del contrato como árbol JSON: se lee siempre, aunque el contrato agregue campos. */
    public JsonNode getBody() { return body; }

    /**
     * El cuerpo como uno de los modelos generados del documento OpenAPI, por ejemplo
     * {@code respuesta.como(OmisosRespuesta.class)}. Los campos que el contrato agregue después se ignoran.
     */
    public <T> T como(Class<T> modelo) {
        return ClienteConsultas.como(body, modelo);
    }

    public int getStatus() { return status; }

    /** El x-request-id: cítelo a soporte. */
    public String getRequestId() { return requestId; }

    /** La Idempotency-Key que envió (catálogos), la misma en cada reintento; null en los registros. */
    public String getIdempotencyKey() { return idempotencyKey; }

    /** La misma respuesta dada otra vez por repetir la clave (no se cobró otra vez). */
    public boolean isRepetida() { return repetida; }

    /** Con constancia: {"id", "url"} de la constancia, o {"motivo"} por el que no se emitió. Vacío si no la pidió. */
    public Optional<Map<String, String>> getConstancia() { return Optional.ofNullable(constancia); }

    /** Cuántos intentos tomó (más de 1 si se reintentó un 502 o una conexión fallida). */
    public int getIntentos() { return intentos; }
}
