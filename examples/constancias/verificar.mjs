// Verifica una constancia de consulta sin la pasarela: node verificar.mjs constancia.jws jwks.json
// (jwks.json es lo que publica https://<pasarela>/.well-known/jwks.json; npm install jose).
import { readFileSync } from 'node:fs';
import { compactVerify, createLocalJWKSet } from 'jose';

const [receiptFile, keysFile] = process.argv.slice(2);
const jws = readFileSync(receiptFile, 'utf8').trim();
const jwks = JSON.parse(readFileSync(keysFile, 'utf8'));
try {
  const { payload, protectedHeader } = await compactVerify(jws, createLocalJWKSet(jwks), { algorithms: ['EdDSA'] });
  const constancia = JSON.parse(new TextDecoder().decode(payload));
  // La clave solo firma dentro de su vigencia: una firma fuera de ella no vale.
  const key = jwks.keys.find((candidate) => candidate.kid === protectedHeader.kid);
  const at = Date.parse(constancia.emitidaEn);
  if (at < Date.parse(key.firmaDesde) || (key.firmaHasta && at >= Date.parse(key.firmaHasta))) throw new Error('firmada fuera de la vigencia de su clave');
  console.log(`VÁLIDA: ${constancia.solicitud.consulta} respondió ${constancia.respuesta.estado} el ${constancia.emitidaEn} (constancia ${constancia.id})`);
} catch (error) {
  console.log(`NO VÁLIDA: ${error.message}`);
  process.exit(1);
}
