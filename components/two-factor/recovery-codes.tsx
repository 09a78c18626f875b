import { CopyButton } from '@/components/console/copy-button';

/** Recovery codes, shown once: the user saves them now or generates new ones later. */
export function RecoveryCodes({ codes }: { codes: string[] }) {
  return (
    <div className="secret" role="status">
      <strong>Tus códigos de recuperación</strong>
      <ul className="recovery-codes mono" data-testid="recovery-codes" aria-label="Códigos de recuperación">
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ul>
      <div className="actions">
        <CopyButton text={codes.join('\n')} label="Copiar los códigos" />
      </div>
      <span className="small">
        Guárdalos en un lugar seguro (un gestor de contraseñas, papel bajo llave): solo se muestran esta vez. Si pierdes el teléfono, cada
        código te deja entrar una vez en lugar del código de la aplicación.
      </span>
    </div>
  );
}
