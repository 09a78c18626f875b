// Constancias de consulta in /docs: what a receipt proves and what it does not, how to ask for one,
// the two offline scripts, and the operations tagged constancias (tagged-operations.tsx).
import type { OpenApiDocument } from '@/lib/surfaces/openapi/document';
import { CONSTANCIA_SCOPE } from '@/lib/presentation/constancia-words';
import { NODE_VERIFICATION_SCRIPT, PYTHON_VERIFICATION_SCRIPT } from './constancia-scripts';
import { OperationSection, operationsTagged, type TaggedOperation } from './tagged-operations';

export function constanciaOperations(document: OpenApiDocument): TaggedOperation[] {
  return operationsTagged(document, 'constancias', ['get', 'post']);
}

export function ConstanciasSection({ baseUrl, document }: { baseUrl: string; document: OpenApiDocument }) {
  const origin = baseUrl.replace(/\/api$/, '');
  return (
    <section id="constancias" className="support" aria-labelledby="constancias-title">
      <h2 id="constancias-title">Constancias de consulta</h2>
      <p>
        Para el expediente de su cliente (debida diligencia): la respuesta del registro firmada por este servicio, que un examinador verifica años
        después sin nosotros. {CONSTANCIA_SCOPE}
      </p>
      <ul>
        <li>
          Pida a soporte que las habilite y envíe cualquiera de las cinco consultas con <code>x-constancia: true</code>: el cuerpo y el estado son los
          de siempre; la respuesta trae <code>x-constancia-id</code> y <code>x-constancia-url</code>, o <code>x-constancia-motivo</code> si no se emitió.
        </li>
        <li>
          Cada constancia puede tener una tarifa (<code>constancias.tarifa_centavos</code> en <code>GET /cuenta</code>), cobrada con su consulta, una
          sola vez, como un movimiento propio (<code>constancia</code>); si el saldo no la cubre, la consulta responde igual y sin constancia (
          <code>x-constancia-motivo: saldo-insuficiente</code>).
        </li>
        <li>
          <code>GET /constancias/{'{id}'}</code> da la constancia (un JWS compacto, EdDSA con Ed25519 sobre JSON canónico) y su prueba de inclusión en el
          registro público; con <code>Accept: application/pdf</code>, su PDF con código QR.
        </li>
        <li>
          En un lote, <code>&quot;constancias&quot;: true</code> junto a la lista da una constancia por cada fila encontrada, sobre la misma respuesta que
          daría la consulta individual: en los resultados, <code>constancia_id</code> y <code>constancia_url</code>.
        </li>
        <li>
          Las claves públicas, con su vigencia: <a href={`${origin}/.well-known/jwks.json`}>{`${origin}/.well-known/jwks.json`}</a>. Verificación pública:{' '}
          <a href={`${origin}/verificar`}>{`${origin}/verificar`}</a>.
        </li>
      </ul>
      <h3>Verificarla sin este servicio</h3>
      <p>
        Guarde las claves publicadas en <code>jwks.json</code> y la constancia en <code>constancia.jws</code>; cualquiera de los dos guiones imprime{' '}
        <code>VÁLIDA</code> o <code>NO VÁLIDA</code> y por qué.
      </p>
      <details>
        <summary>Node.js (jose): node verificar.mjs constancia.jws jwks.json</summary>
        <pre tabIndex={0} role="region" aria-label="Guion de verificación en Node.js">
          {NODE_VERIFICATION_SCRIPT}
        </pre>
      </details>
      <details>
        <summary>Python (cryptography): python3 verificar.py constancia.jws jwks.json</summary>
        <pre tabIndex={0} role="region" aria-label="Guion de verificación en Python">
          {PYTHON_VERIFICATION_SCRIPT}
        </pre>
      </details>
      {constanciaOperations(document).map((entry) => (
        <OperationSection key={`${entry.method} ${entry.path}`} baseUrl={baseUrl} document={document} entry={entry} exampleId="3f2b8c1e-5d4a-4b6f-9c7e-1a2b3c4d5e6f" idempotencyKey="" />
      ))}
    </section>
  );
}
