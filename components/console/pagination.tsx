import Link from 'next/link';

/** Keyset paging of a console list: links to the newer and the older page, where there is one. */
export function Pagination({ newer, older, olderLabel }: { newer: string | undefined; older: string | undefined; olderLabel: string }) {
  return (
    <nav className="pagination" aria-label="Páginas">
      {newer ? (
        <Link className="button secondary" href={newer}>
          ← Más recientes
        </Link>
      ) : (
        <span />
      )}
      {older && (
        <Link className="button secondary" href={older}>
          {olderLabel} →
        </Link>
      )}
    </nav>
  );
}
