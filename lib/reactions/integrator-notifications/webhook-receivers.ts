import { ALERT_ID_HEADER, SIGNATURE_HEADER, TIMESTAMP_HEADER } from '@/lib/reactions/alerts/signature';
import type { IntegratorNotification } from './kinds/notice';
import { TEST_TYPE } from './test-notice';

// The receivers of the webhook's documentation (webhook-docs.ts): code that verifies a notice as its
// steps say, in the languages of the request samples.

/** How many seconds apart a notice's X-Alerta-Fecha and the receiver's clock may be (lib/reactions/alerts/signature.ts). */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

export const WEBHOOK_SAMPLE_LANGUAGES = [
  { key: 'curl', label: 'curl y openssl (firmar una prueba)' },
  { key: 'javascript', label: 'JavaScript (Node.js)' },
  { key: 'python', label: 'Python (biblioteca estándar)' },
  { key: 'csharp', label: 'C# (ASP.NET Core)' },
] as const;

export type WebhookSampleLanguage = (typeof WEBHOOK_SAMPLE_LANGUAGES)[number]['key'];

export interface WebhookSampleParameters {
  /** The curl sample's receiver, secret and body (the others read the secret from SECRETO_WEBHOOK). */
  url: string;
  secret: string;
  body: IntegratorNotification;
}

/**
 * Receivers that verify a notice as the steps say, in the languages of the request samples
 * (lib/surfaces/openapi/samples.ts): each listens on PORT (8080), takes the secret from SECRETO_WEBHOOK,
 * answers 401 to a bad signature or an old time, 204 otherwise, and handles each `id` once. The
 * curl one signs a notice as this service does and sends it, to test a receiver.
 * tests/examples/webhook-receivers.test.ts runs them against real deliveries.
 */
export function webhookSamples(parameters: WebhookSampleParameters): Record<WebhookSampleLanguage, string> {
  const body = JSON.stringify(parameters.body);
  return {
    curl: [
      `# Firme un aviso como lo firma este servicio y envíelo a su receptor para probarlo.`,
      `# Para comprobar un aviso recibido, ponga en FECHA su X-Alerta-Fecha y en CUERPO su cuerpo`,
      `# tal como llegó: la firma que se imprime debe ser igual a su X-Alerta-Firma.`,
      `SECRETO=${shellQuote(parameters.secret)}`,
      `URL=${shellQuote(parameters.url)}`,
      `FECHA="$(date +%s)"`,
      `CUERPO=${shellQuote(body)}`,
      `FIRMA="sha256=$(printf '%s.%s' "$FECHA" "$CUERPO" | openssl dgst -sha256 -hmac "$SECRETO" -r | cut -d' ' -f1)"`,
      `echo "X-Alerta-Firma: $FIRMA"`,
      `curl -sS -o /dev/null -w 'Su receptor respondió %{http_code}\\n' -X POST "$URL" \\`,
      `  -H 'content-type: application/json' \\`,
      `  -H ${shellQuote(`${ALERT_ID_HEADER}: ${parameters.body.id}`)} \\`,
      `  -H "${TIMESTAMP_HEADER}: $FECHA" \\`,
      `  -H "${SIGNATURE_HEADER}: $FIRMA" \\`,
      `  --data-raw "$CUERPO"`,
    ].join('\n'),
    javascript: [
      `// receptor.mjs: node receptor.mjs (Node.js 18 o posterior, sin dependencias)`,
      `import { createHmac, timingSafeEqual } from 'node:crypto';`,
      `import { createServer } from 'node:http';`,
      ``,
      `const SECRETO = process.env.SECRETO_WEBHOOK; // whsec_…: el secreto de firma de su integración`,
      `const TOLERANCIA_SEGUNDOS = ${SIGNATURE_TOLERANCE_SECONDS};`,
      `const procesados = new Set(); // en producción, guarde los id en su base de datos`,
      ``,
      `function firmaValida(cuerpo, fecha, firma) {`,
      `  const segundos = Number(fecha);`,
      `  if (!/^\\d+$/.test(fecha ?? '') || Math.abs(Date.now() / 1000 - segundos) > TOLERANCIA_SEGUNDOS) return false;`,
      `  const esperada = Buffer.from('sha256=' + createHmac('sha256', SECRETO).update(fecha + '.').update(cuerpo).digest('hex'));`,
      `  const recibida = Buffer.from(String(firma ?? ''));`,
      `  return esperada.length === recibida.length && timingSafeEqual(esperada, recibida);`,
      `}`,
      ``,
      `createServer((solicitud, respuesta) => {`,
      `  const partes = [];`,
      `  solicitud.on('data', (parte) => partes.push(parte));`,
      `  solicitud.on('end', () => {`,
      `    const cuerpo = Buffer.concat(partes); // los bytes tal como llegaron: la firma es de ellos`,
      `    if (!firmaValida(cuerpo, solicitud.headers['${TIMESTAMP_HEADER}'], solicitud.headers['${SIGNATURE_HEADER}'])) {`,
      `      respuesta.writeHead(401).end();`,
      `      return;`,
      `    }`,
      `    const aviso = JSON.parse(cuerpo.toString('utf8'));`,
      `    if (!procesados.has(aviso.id)) {`,
      `      procesados.add(aviso.id);`,
      `      console.log(aviso.tipo, aviso.titulo); // su trabajo, después de responder si es largo`,
      `    }`,
      `    respuesta.writeHead(204).end();`,
      `  });`,
      `}).listen(Number(process.env.PORT ?? 8080));`,
    ].join('\n'),
    python: [
      `# receptor.py: python3 receptor.py (Python 3.8 o posterior, solo la biblioteca estándar)`,
      `import hashlib`,
      `import hmac`,
      `import json`,
      `import os`,
      `import time`,
      `from http.server import BaseHTTPRequestHandler, HTTPServer`,
      ``,
      `SECRETO = os.environ["SECRETO_WEBHOOK"].encode("utf-8")  # whsec_…: el secreto de firma de su integración`,
      `TOLERANCIA_SEGUNDOS = ${SIGNATURE_TOLERANCE_SECONDS}`,
      `procesados = set()  # en producción, guarde los id en su base de datos`,
      ``,
      ``,
      `def firma_valida(cuerpo, fecha, firma):`,
      `    if not fecha or not fecha.isdigit() or abs(time.time() - int(fecha)) > TOLERANCIA_SEGUNDOS:`,
      `        return False`,
      `    esperada = "sha256=" + hmac.new(SECRETO, fecha.encode("ascii") + b"." + cuerpo, hashlib.sha256).hexdigest()`,
      `    return hmac.compare_digest(esperada.encode("ascii"), (firma or "").encode("utf-8"))`,
      ``,
      ``,
      `class Receptor(BaseHTTPRequestHandler):`,
      `    def do_POST(self):`,
      `        cuerpo = self.rfile.read(int(self.headers.get("content-length", "0")))  # los bytes tal como llegaron`,
      `        if not firma_valida(cuerpo, self.headers.get("${TIMESTAMP_HEADER}"), self.headers.get("${SIGNATURE_HEADER}")):`,
      `            self.send_response(401)`,
      `            self.end_headers()`,
      `            return`,
      `        aviso = json.loads(cuerpo)`,
      `        if aviso["id"] not in procesados:`,
      `            procesados.add(aviso["id"])`,
      `            print(aviso["tipo"], aviso["titulo"], flush=True)  # su trabajo, después de responder si es largo`,
      `        self.send_response(204)`,
      `        self.end_headers()`,
      ``,
      ``,
      `HTTPServer(("", int(os.environ.get("PORT", "8080"))), Receptor).serve_forever()`,
    ].join('\n'),
    csharp: [
      `// Program.cs de un proyecto "dotnet new web" (.NET 8): dotnet run`,
      `using System.Security.Cryptography;`,
      `using System.Text;`,
      `using System.Text.Json;`,
      ``,
      `var secreto = Encoding.UTF8.GetBytes(Environment.GetEnvironmentVariable("SECRETO_WEBHOOK")!); // whsec_…`,
      `const long ToleranciaSegundos = ${SIGNATURE_TOLERANCE_SECONDS};`,
      `var procesados = new HashSet<string>(); // en producción, guarde los id en su base de datos`,
      ``,
      `var app = WebApplication.Create(args);`,
      ``,
      `app.MapPost("/avisos", async (HttpRequest solicitud) =>`,
      `{`,
      `    using var memoria = new MemoryStream();`,
      `    await solicitud.Body.CopyToAsync(memoria);`,
      `    var cuerpo = memoria.ToArray(); // los bytes tal como llegaron: la firma es de ellos`,
      `    var fecha = solicitud.Headers["${TIMESTAMP_HEADER}"].ToString();`,
      `    var firma = solicitud.Headers["${SIGNATURE_HEADER}"].ToString();`,
      `    if (!long.TryParse(fecha, out var segundos) || Math.Abs(DateTimeOffset.UtcNow.ToUnixTimeSeconds() - segundos) > ToleranciaSegundos)`,
      `        return Results.Unauthorized();`,
      `    var firmado = Encoding.ASCII.GetBytes(fecha + ".").Concat(cuerpo).ToArray();`,
      `    var esperada = Encoding.ASCII.GetBytes("sha256=" + Convert.ToHexString(HMACSHA256.HashData(secreto, firmado)).ToLowerInvariant());`,
      `    if (!CryptographicOperations.FixedTimeEquals(esperada, Encoding.UTF8.GetBytes(firma)))`,
      `        return Results.Unauthorized();`,
      `    using var aviso = JsonDocument.Parse(cuerpo);`,
      `    var id = aviso.RootElement.GetProperty("id").GetString()!;`,
      `    lock (procesados)`,
      `    {`,
      `        if (procesados.Add(id))`,
      `            Console.WriteLine($"{aviso.RootElement.GetProperty("tipo").GetString()} {aviso.RootElement.GetProperty("titulo").GetString()}");`,
      `    }`,
      `    return Results.NoContent();`,
      `});`,
      ``,
      `app.Run($"http://0.0.0.0:{Environment.GetEnvironmentVariable("PORT") ?? "8080"}");`,
    ].join('\n'),
  };
}

/** The samples as the documentation shows them: placeholders for the receiver and the secret, the test notice as the body. */
export function documentedWebhookSamples(events: ReadonlyArray<{ tipo: string; example: IntegratorNotification }>): Record<WebhookSampleLanguage, string> {
  const body = events.find((event) => event.tipo === TEST_TYPE)!.example;
  return webhookSamples({ url: 'https://su-servidor.example/avisos', secret: 'whsec_…', body });
}

function shellQuote(text: string): string {
  return `'${text.replaceAll("'", "'\\''")}'`;
}
