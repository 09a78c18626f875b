import { CopyButton } from './copy-button';

/** A secret (token, password) shown once: it is not stored anywhere it could be shown again. */
export function SecretReveal({ title, secret, testId }: { title: string; secret: string; testId?: string }) {
  return (
    <div className="secret" role="status">
      <strong>{title}</strong>
      <div className="value">
        <code className="mono" data-testid={testId}>
          {secret}
        </code>
        <CopyButton text={secret} />
      </div>
      <span className="small">
        Cópialo ahora y guárdalo en un lugar seguro: solo se muestra esta vez. Si se pierde, habrá que generar uno nuevo.
      </span>
    </div>
  );
}
