// The verdict of a receipt as POST /api/constancias/verificar answers it and /verificar shows it
// (lib/core/constancias/read.ts verifies; this says it in the API's terms).
import { verifyConstancia, type ConstanciaVerification, type LogStanding } from '@/lib/core/constancias/read';
import type { StandingBody, VerificationBody, VerificationProblem } from './constancia-words';

export function standingBody(standing: LogStanding): StandingBody {
  return {
    indice: standing.leafIndex,
    estado: standing.head ? 'incluida' : 'pendiente',
    cabeza: standing.head?.signedHead ?? null,
    tamano: standing.head?.treeSize ?? null,
    prueba: standing.head?.proof ?? null,
    sello: standing.timestamp
      ? {
          cabeza: standing.timestamp.signedHead,
          tamano: standing.timestamp.treeSize,
          prueba: standing.timestamp.proof,
          respuesta: standing.timestamp.reply,
          selladaEn: standing.timestamp.at.toISOString(),
        }
      : null,
  };
}

/** Why a receipt does not verify, as the verification's motivo says it. */
const PROBLEM_CODES = {
  malformed: 'mal-formada',
  unknown_key: 'clave-desconocida',
  bad_signature: 'firma-invalida',
  outside_key_window: 'fuera-de-la-vigencia-de-la-clave',
  not_a_constancia: 'no-es-una-constancia',
  not_canonical: 'no-canonica',
  absent: 'fuera-del-registro',
} as const satisfies Record<string, VerificationProblem>;

export async function verificationBody(jws: string): Promise<{ body: VerificationBody; verification: ConstanciaVerification }> {
  const verification = await verifyConstancia(jws);
  if (!verification.valid) return { verification, body: { valida: false, motivo: PROBLEM_CODES[verification.problem], constancia: null, clave: null, registro: null } };
  const key = { kid: verification.key.kid, firmaDesde: verification.key.firmaDesde, firmaHasta: verification.key.firmaHasta };
  // Signed by us but not in the log at the index it names: nothing a receipt we issued can be.
  if (verification.inLog === 'absent') return { verification, body: { valida: false, motivo: PROBLEM_CODES.absent, constancia: verification.payload, clave: key, registro: null } };
  return { verification, body: { valida: true, motivo: null, constancia: verification.payload, clave: key, registro: verification.standing ? standingBody(verification.standing) : null } };
}
