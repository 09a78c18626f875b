package gt.pasarela.contribuyentes;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** El transporte por omisión, con el HttpClient de Java (sin dependencias). */
public final class TransporteHttp implements Transporte {
    /**
     * Uno para todos los clientes que no traen el suyo: un HttpClient guarda sus conexiones y su
     * hilo, y se comparte entre hilos.
     */
    private static final class Compartido {
        static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).followRedirects(HttpClient.Redirect.NEVER).build();
    }

    private final HttpClient http;

    public TransporteHttp() {
        this(Compartido.HTTP);
    }

    /** Con su propio HttpClient (un proxy, otro SSLContext). */
    public TransporteHttp(HttpClient http) {
        this.http = http;
    }

    @Override
    public RespuestaHttp enviar(String metodo, String url, Map<String, String> cabeceras, byte[] cuerpo, Duration tiempoDeEspera) throws IOException, InterruptedException {
        HttpRequest.Builder solicitud = HttpRequest.newBuilder(URI.create(url))
            .timeout(tiempoDeEspera)
            .method(metodo, cuerpo == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofByteArray(cuerpo));
        cabeceras.forEach(solicitud::header);
        HttpResponse<byte[]> respuesta = http.send(solicitud.build(), HttpResponse.BodyHandlers.ofByteArray());
        Map<String, String> recibidas = new HashMap<>();
        for (Map.Entry<String, List<String>> cabecera : respuesta.headers().map().entrySet()) {
            if (!cabecera.getValue().isEmpty()) recibidas.put(cabecera.getKey().toLowerCase(Locale.ROOT), cabecera.getValue().get(0));
        }
        return new RespuestaHttp(respuesta.statusCode(), recibidas, respuesta.body());
    }
}
