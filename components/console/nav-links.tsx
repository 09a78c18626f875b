'use client';

import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { useEffect, useRef, useState, type ReactNode } from 'react';

export interface NavItem {
  href: string;
  label: string;
  /** A count beside the label (requests waiting), with what it counts for screen readers. */
  count?: { value: number; means: string };
}

/**
 * The console's sections and, after them, `children` (who is signed in, "Cerrar sesión"). On a
 * phone the header is one row, the brand and a "Menú" button that opens both as a full-width
 * list (every section visible at once); from 900 px they are always in the header.
 */
export function NavLinks({
  items,
  children,
  label = 'Secciones de la consola',
  home = '/admin',
}: {
  items: NavItem[];
  children: ReactNode;
  /** The navigation's name for screen readers (the portal names its own). */
  label?: string;
  /** The section that is current only on its own page, not under it. */
  home?: string;
}) {
  const pathname = usePathname();
  const [open, setOpen] = useState(false);
  const [openedAt, setOpenedAt] = useState(pathname);
  // Following a link closes the menu: the next page starts with it folded.
  if (open && openedAt !== pathname) setOpen(false);
  const button = useRef<HTMLButtonElement>(null);
  // Escape folds an open menu and gives the focus back to its button, as menus do.
  useEffect(() => {
    if (!open) return;
    const closeOnEscape = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented) return;
      setOpen(false);
      button.current?.focus();
    };
    document.addEventListener('keydown', closeOnEscape);
    return () => document.removeEventListener('keydown', closeOnEscape);
  }, [open]);
  return (
    <>
      <button
        ref={button}
        type="button"
        className="menu-button"
        aria-expanded={open}
        aria-controls="console-menu"
        onClick={() => {
          setOpenedAt(pathname);
          setOpen(!open);
        }}
      >
        <span aria-hidden="true">☰</span> Menú
      </button>
      <div id="console-menu" className="console-menu" data-open={open}>
        <nav className="console-nav" aria-label={label}>
          <ul>
            {items.map((item) => {
              const current = item.href === home ? pathname === home : pathname.startsWith(item.href);
              return (
                <li key={item.href}>
                  <Link href={item.href} aria-current={current ? 'page' : undefined} onClick={() => setOpen(false)}>
                    {item.label}
                    {item.count && item.count.value > 0 && (
                      <>
                        {' '}
                        <span className="badge nav-count" data-testid="nav-count">
                          {item.count.value}
                        </span>
                        <span className="sr-only"> {item.count.means}</span>
                      </>
                    )}
                  </Link>
                </li>
              );
            })}
          </ul>
        </nav>
        {children}
      </div>
    </>
  );
}
