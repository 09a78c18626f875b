package gt.pasarela.contribuyentes;

import java.io.IOException;
import java.time.Duration;
import java.util.Map;

/**
 * Cómo viaja una solicitud: {@link TransporteHttp} (java.net.http) por omisión; otro transporte (el
 * de un proxy, el de una prueba) implementa esta interfaz. Un transporte no reintenta ni decide
 * causas: eso es del cliente.
 */
public interface Transporte {
    /**
     * Envía una solicitud y devuelve la respuesta, sea cual sea su estado.
     *
     * @param cuerpo null si no lleva
     * @throws IOException si no llegó respuesta (la solicitud pudo llegar o no)
     */
    RespuestaHttp enviar(String metodo, String url, Map<String, String> cabeceras, byte[] cuerpo, Duration tiempoDeEspera) throws IOException, InterruptedException;

    /** Una respuesta HTTP tal como llegó, con los nombres de sus cabeceras en minúsculas. */
    record RespuestaHttp(int status, Map<String, String> cabeceras, byte[] cuerpo) {}
}
