import { Fragment } from 'react';

/**
 * An e-mail address that a narrow column wraps after its "@" or a dot, never inside a word: a
 * `<wbr>` after each. `overflow-wrap: anywhere` would let a table shrink the column to one letter
 * and cut "contabilidad" in two; `break-word` keeps a single part longer than the column from
 * pushing the page sideways, its last resort.
 */
export function EmailAddress({ email, className }: { email: string; className?: string }) {
  const parts = email.split(/(?<=[@.])/);
  return (
    <span className={className ? `email-address ${className}` : 'email-address'}>
      {parts.map((part, index) => (
        <Fragment key={index}>
          {part}
          {index < parts.length - 1 && <wbr />}
        </Fragment>
      ))}
    </span>
  );
}
