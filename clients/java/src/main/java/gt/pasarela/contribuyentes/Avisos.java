package gt.pasarela.contribuyentes;

import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Los avisos del servicio al webhook de su integración: HMAC-SHA256 con el secreto de firma sobre
 * "&lt;X-Alerta-Fecha&gt;.&lt;cuerpo tal como llegó&gt;", en hexadecimal con "sha256=" delante en
 * X-Alerta-Firma; la fecha a no más de cinco minutos del reloj.
 */
public final class Avisos {
    private Avisos() {}

    /** Si el aviso es del servicio y reciente. Responda 401 si no; 2xx sin repetir el trabajo de un id ya atendido. */
    public static boolean verificar(String secreto, byte[] cuerpo, String fecha, String firma) {
        return verificar(secreto, cuerpo, fecha, firma, 300, System.currentTimeMillis() / 1000);
    }

    /**
     * @param cuerpo los bytes del cuerpo tal como llegaron, sin decodificar
     * @param ahora segundos desde 1970 (el reloj, salvo en pruebas)
     */
    public static boolean verificar(String secreto, byte[] cuerpo, String fecha, String firma, long toleranciaSegundos, long ahora) {
        if (firma == null || firma.isEmpty() || fecha == null || !fecha.strip().matches("-?\\d{1,18}")) return false;
        long enviado = Long.parseLong(fecha.strip());
        if (Math.abs(ahora - enviado) > toleranciaSegundos) return false;
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secreto.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            mac.update((enviado + ".").getBytes(StandardCharsets.US_ASCII));
            String esperada = "sha256=" + HexFormat.of().formatHex(mac.doFinal(cuerpo));
            return MessageDigest.isEqual(esperada.getBytes(StandardCharsets.US_ASCII), firma.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException | InvalidKeyException imposible) {
            throw new IllegalStateException(imposible);
        }
    }
}
