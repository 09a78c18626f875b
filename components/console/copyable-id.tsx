import type { ReactNode } from 'react';
import { CopyButton } from './copy-button';

/**
 * An identifier support copies into a reply or a ticket (a request id, a token's prefix, an
 * integration's name, a query's number): shown, perhaps shortened, with a button that copies it whole.
 * `what` names it for screen readers, as in "Copiar el id de solicitud req_…".
 */
export function CopyableId({ value, what, shown, children }: { value: string; what: string; shown?: string; children?: ReactNode }) {
  return (
    <span className="copyable">
      {children ?? (
        <code className="mono small" title={value} aria-label={`${what.replace(/^(el|la) /, '').replace(/^./, (first) => first.toUpperCase())} ${value}`}>
          {shown ?? value}
        </code>
      )}
      <CopyButton text={value} accessibleName={`Copiar ${what} ${value}`} />
    </span>
  );
}
