// /verificar - the public verification of a constancia de consulta (docs/constancias.md): by the
// PDF's QR code (?constancia=<id>, a receipt this service holds) or by pasting the receipt's text.
// No sign-in, in Spanish; the public pages' per-IP limit.
import type { Metadata } from 'next';
import { VerificationForm } from '@/components/constancias/verification-form';
import { VerificationResult } from '@/components/constancias/verification-result';
import { verifyHeldConstancia } from '@/lib/surfaces/public-pages/verification';
import './verificar.css';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Verificar una constancia de consulta' };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export default async function VerifyPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { constancia } = await searchParams;
  const id = typeof constancia === 'string' && UUID.test(constancia) ? constancia : undefined;
  const held = id ? await verifyHeldConstancia(id) : undefined;
  return (
    <main className="verify-page">
      <h1>Verificar una constancia de consulta</h1>
      <p>
        Una constancia es la respuesta de un registro, firmada por este servicio. Aquí se comprueba su firma con las claves publicadas
        (/.well-known/jwks.json) y su lugar en el registro público. También puede verificarla sin este servicio (docs: «Constancias de consulta»).
      </p>
      {held?.kind === 'verified' && <VerificationResult result={held.result} />}
      {held?.kind === 'purged' && (
        <p className="card" data-testid="verification-purged">
          El servicio ya no guarda el texto de esa constancia (pasó la retención de los registros). Pegue abajo el texto que trae su PDF o la respuesta:
          su firma y su lugar en el registro se siguen verificando.
        </p>
      )}
      {(held?.kind === 'unknown' || (constancia !== undefined && !id)) && (
        <p className="card" role="alert" data-testid="verification-unknown">
          No encontramos una constancia con ese código. Pegue abajo su texto para verificarla.
        </p>
      )}
      <VerificationForm />
    </main>
  );
}
