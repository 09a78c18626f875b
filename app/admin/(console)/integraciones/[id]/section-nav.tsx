'use client';

import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { INTEGRATION_SECTIONS, integrationPath, sectionOfPath } from '@/lib/surfaces/console/integration-sections';

/**
 * The integration's sections as links, one address each, the current one marked for screen
 * readers (aria-current) and by sight. Links, not ARIA tabs: each opens a page of its own, and Tab
 * and Enter work as on any link. On a phone they wrap into a grid, all in sight.
 */
export function IntegrationSectionNav({ integrationId }: { integrationId: number }) {
  const current = sectionOfPath(usePathname());
  return (
    <nav className="section-nav" aria-label="Secciones de la integración">
      <ul>
        {INTEGRATION_SECTIONS.map((section) => (
          <li key={section.key}>
            <Link href={integrationPath(integrationId, section.key)} aria-current={section.key === current ? 'page' : undefined}>
              {section.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
