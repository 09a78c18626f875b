import { CopyButton } from './copy-button';

/**
 * A secret (token, password) shown once: it is not stored anywhere it could be shown again. The
 * notice agrees with what it is: "Cópiala… una nueva" for a password, "Cópialo… uno nuevo" else.
 */
export function SecretReveal({ title, secret, testId, feminine = false }: { title: string; secret: string; testId?: string; feminine?: boolean }) {
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
        {feminine
          ? 'Cópiela ahora y guárdela en un lugar seguro: solo se muestra esta vez. Si se pierde, habrá que generar una nueva.'
          : 'Cópielo ahora y guárdelo en un lugar seguro: solo se muestra esta vez. Si se pierde, habrá que generar uno nuevo.'}
      </span>
    </div>
  );
}
