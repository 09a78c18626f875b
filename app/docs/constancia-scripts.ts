// The offline verification scripts /docs shows, as examples/constancias/ holds them (the tests run
// those files, and tests/examples/constancia-scripts.test.ts keeps these texts equal to them).
export const NODE_VERIFICATION_SCRIPT = `// Verifica una constancia de consulta sin la pasarela: node verificar.mjs constancia.jws jwks.json
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
  console.log(\`VÁLIDA: \${constancia.solicitud.consulta} respondió \${constancia.respuesta.estado} el \${constancia.emitidaEn} (constancia \${constancia.id})\`);
} catch (error) {
  console.log(\`NO VÁLIDA: \${error.message}\`);
  process.exit(1);
}
`;

export const PYTHON_VERIFICATION_SCRIPT = `#!/usr/bin/env python3
# Verifica una constancia de consulta sin la pasarela: python3 verificar.py constancia.jws jwks.json
# (jwks.json es lo que publica https://<pasarela>/.well-known/jwks.json; pip install cryptography).
import base64, json, sys
from datetime import datetime
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

def b64(text): return base64.urlsafe_b64decode(text + '=' * (-len(text) % 4))
def instant(text): return datetime.fromisoformat(text.replace('Z', '+00:00'))

jws = open(sys.argv[1], encoding='utf-8').read().strip()
keys = json.load(open(sys.argv[2], encoding='utf-8'))['keys']
try:
    header_b64, payload_b64, signature_b64 = jws.split('.')
    header = json.loads(b64(header_b64))
    key = next((k for k in keys if k['kid'] == header.get('kid')), None)
    if header.get('alg') != 'EdDSA' or key is None: raise ValueError('clave desconocida')
    Ed25519PublicKey.from_public_bytes(b64(key['x'])).verify(b64(signature_b64), f'{header_b64}.{payload_b64}'.encode())
    constancia = json.loads(b64(payload_b64))
    at = instant(constancia['emitidaEn'])
    if at < instant(key['firmaDesde']) or (key.get('firmaHasta') and at >= instant(key['firmaHasta'])): raise ValueError('firmada fuera de la vigencia de su clave')
    print(f"VÁLIDA: {constancia['solicitud']['consulta']} respondió {constancia['respuesta']['estado']} el {constancia['emitidaEn']} (constancia {constancia['id']})")
except (InvalidSignature, ValueError, KeyError) as error:
    print(f'NO VÁLIDA: {error or "firma inválida"}')
    sys.exit(1)
`;
