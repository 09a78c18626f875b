'use client';

import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { useState } from 'react';

export interface NavItem {
  href: string;
  label: string;
}

/**
 * The console's sections. On a phone they sit behind a "Menú" button and open as a full-width
 * list (every section visible at once); from 900 px they are always in the header.
 */
export function NavLinks({ items }: { items: NavItem[] }) {
  const pathname = usePathname();
  const [open, setOpen] = useState(false);
  const [openedAt, setOpenedAt] = useState(pathname);
  // Following a link closes the menu: the next page starts with it folded.
  if (open && openedAt !== pathname) setOpen(false);
  return (
    <nav className="console-nav" aria-label="Secciones de la consola" data-open={open}>
      <button
        type="button"
        className="menu-button"
        aria-expanded={open}
        aria-controls="console-sections"
        onClick={() => {
          setOpenedAt(pathname);
          setOpen(!open);
        }}
      >
        <span aria-hidden="true">☰</span> Menú
      </button>
      <ul id="console-sections">
        {items.map((item) => {
          const current = item.href === '/admin' ? pathname === '/admin' : pathname.startsWith(item.href);
          return (
            <li key={item.href}>
              <Link href={item.href} aria-current={current ? 'page' : undefined} onClick={() => setOpen(false)}>
                {item.label}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
