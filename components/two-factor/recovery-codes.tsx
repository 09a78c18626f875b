'use client';

import { CopyButton } from '@/components/console/copy-button';
import { recoveryCodesFile } from '@/lib/flows/two-factor/recovery-codes-file';

/**
 * Saves the codes on screen as a .txt, built in the browser: a blob's address names no code, and
 * nothing is asked of the server again.
 */
function downloadCodes(codes: string[], serviceName: string, product: string) {
  const file = recoveryCodesFile(codes, { serviceName, product });
  const url = URL.createObjectURL(new Blob([file.content], { type: 'text/plain;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = file.fileName;
  document.body.appendChild(link);
  link.click();
  link.remove();
  // Revoked after the click has handed the blob to the download.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/** Recovery codes, shown once: the user saves them now or generates new ones later. */
export function RecoveryCodes({ codes, serviceName, product }: { codes: string[]; serviceName: string; product: string }) {
  return (
    <div className="secret" role="status">
      <strong>Sus códigos de recuperación</strong>
      <ul className="recovery-codes mono" data-testid="recovery-codes" aria-label="Códigos de recuperación">
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ul>
      <div className="actions">
        <CopyButton text={codes.join('\n')} label="Copiar los códigos" failedHint="No se pudo copiar: seleccione los códigos y cópielos a mano." />
        <button type="button" className="secondary" onClick={() => downloadCodes(codes, serviceName, product)}>
          Descargar como archivo
        </button>
      </div>
      <span className="small">
        Guárdelos en un lugar seguro (un gestor de contraseñas, papel bajo llave): solo se muestran esta vez. Si pierde el teléfono, cada
        código le deja entrar una vez en lugar del código de la aplicación.
      </span>
    </div>
  );
}
