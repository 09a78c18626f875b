import Link from 'next/link';
import type { ReactNode } from 'react';

export function PageHeader({
  title,
  description,
  back,
  actions,
}: {
  title: string;
  description?: ReactNode;
  back?: { href: string; label: string };
  actions?: ReactNode;
}) {
  return (
    <header className="page-header">
      <div>
        {back && (
          <div className="breadcrumb">
            <Link href={back.href}>← {back.label}</Link>
          </div>
        )}
        <h1>{title}</h1>
        {description && <p>{description}</p>}
      </div>
      {actions && <div className="actions">{actions}</div>}
    </header>
  );
}

export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="empty">
      <strong>{title}</strong>
      {children}
    </div>
  );
}

/** Placeholder blocks shown by loading.tsx while a page's queries run. */
export function Skeleton({ height = '1.2rem', width = '100%' }: { height?: string; width?: string }) {
  return <div className="skeleton" style={{ height, width }} aria-hidden="true" />;
}

export function LoadingPage({ title }: { title: string }) {
  return (
    <div aria-busy="true" aria-live="polite">
      <header className="page-header">
        <div>
          <h1>{title}</h1>
          <p>Cargando…</p>
        </div>
      </header>
      <div className="card">
        <div style={{ display: 'grid', gap: '0.6rem' }}>
          <Skeleton height="2rem" />
          <Skeleton />
          <Skeleton />
          <Skeleton />
          <Skeleton width="60%" />
        </div>
      </div>
    </div>
  );
}
