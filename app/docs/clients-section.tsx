// The client libraries in /docs (docs/clients.md): how to install each, and the same call in each
// beside curl, with what every one of them does the same way.
import type { OpenApiDocument } from '@/lib/surfaces/openapi/document';
import { libraryVersion } from '@/lib/surfaces/openapi/library-version';

export function ClientsSection({ baseUrl, document }: { baseUrl: string; document: OpenApiDocument }) {
  const version = libraryVersion(document.info.version);
  const samples = [
    {
      key: 'curl',
      label: 'curl',
      install: null,
      code: `curl -X POST "${baseUrl}/catalogos/omisos" \\
  -H 'content-type: application/json' \\
  -H "x-integracion-login: $LOGIN" -H "x-integracion-token: $TOKEN" \\
  -H "Idempotency-Key: $(uuidgen)" \\
  -d '{"nit":"576937-K"}'`,
    },
    {
      key: 'typescript',
      label: 'TypeScript / JavaScript (Node.js 20.3+)',
      install: `npm install ./pasarela-contribuyentes-cliente-${version}.tgz`,
      code: `import { ClienteConsultas, SaldoInsuficiente } from '@pasarela-contribuyentes/cliente';

const cliente = new ClienteConsultas({ baseUrl: '${baseUrl}', login: process.env.LOGIN!, token: process.env.TOKEN! });
const { body, requestId } = await cliente.omisos({ nit: '576937-K' });`,
    },
    {
      key: 'python',
      label: 'Python 3.9+ (solo la biblioteca estándar)',
      install: `pip install pasarela_contribuyentes-${version}-py3-none-any.whl`,
      code: `import os
from pasarela_contribuyentes import ClienteConsultas, SaldoInsuficiente

cliente = ClienteConsultas("${baseUrl}", os.environ["LOGIN"], os.environ["TOKEN"])
respuesta = cliente.omisos(nit="576937-K")
print(respuesta.request_id, respuesta.body["data"])`,
    },
    {
      key: 'php',
      label: 'PHP 8.1+ (sin dependencias)',
      install: `composer require pasarela-contribuyentes/cliente:${version}`,
      code: `use PasarelaContribuyentes\\ClienteConsultas;

$cliente = new ClienteConsultas('${baseUrl}', getenv('LOGIN'), getenv('TOKEN'));
$respuesta = $cliente->omisos(nit: '576937-K');
echo $respuesta->requestId, ' ', json_encode($respuesta->body['data']);`,
    },
    {
      key: 'java',
      label: 'Java 17+ (con jackson-databind)',
      install: `<dependency><groupId>gt.pasarela.contribuyentes</groupId><artifactId>cliente</artifactId><version>${version}</version></dependency>`,
      code: `ClienteConsultas cliente = new ClienteConsultas("${baseUrl}", System.getenv("LOGIN"), System.getenv("TOKEN"));
Respuesta respuesta = cliente.omisos(ClienteConsultas.Identificador.nit("576937-K"));
System.out.println(respuesta.getRequestId() + " " + respuesta.getBody().get("data"));`,
    },
  ];
  return (
    <section id="librerias" className="support" aria-labelledby="librerias-title">
      <h2 id="librerias-title">Librerías cliente</h2>
      <p>
        Versión {version}, la del contrato {document.info.version}. Cada una trae un error por causa del contrato (los pares de 401, 402, 403 y 429 que
        solo distingue el mensaje), reintenta solo un 502 o una conexión fallida (nunca un 429), usa la misma <code>Idempotency-Key</code> en cada
        reintento de una consulta de catálogo (se cobra una vez), espera 45 segundos por intento y pide siempre la dirección base. Las entrega el equipo
        del servicio con su paquete (<code>clients/</code> del repositorio); C#, con los ejemplos de cada consulta.
      </p>
      {samples.map((sample) => (
        <details key={sample.key} data-testid={`library-${sample.key}`}>
          <summary>{sample.label}</summary>
          {sample.install && (
            <pre>
              <code>{sample.install}</code>
            </pre>
          )}
          <pre>
            <code>{sample.code}</code>
          </pre>
        </details>
      ))}
    </section>
  );
}
