import { describe, expect, it } from 'vitest';
import { portalNavItems } from './navigation';
import { PORTAL_ROLE_DESCRIPTIONS, PORTAL_ROLES } from '@/lib/flows/portal-identity/roles';

// Every person has their own "Mi cuenta": a role's description is about the integration's sections.
const OWN_ACCOUNT = 'Mi cuenta';
const SECTIONS = [...new Set(PORTAL_ROLES.flatMap((role) => portalNavItems(role).map((item) => item.label)))].filter((label) => label !== OWN_ACCOUNT);

/** The navigation's section names a sentence mentions, capitalized as the navigation writes them. */
function sectionsNamedIn(text: string): string[] {
  return SECTIONS.filter((label) => new RegExp(`(^|[^\\p{L}])${label}(?![\\p{L}])`, 'u').test(text)).sort();
}

describe('PORTAL_ROLE_DESCRIPTIONS', () => {
  it.each(PORTAL_ROLES)('names every section %s opens, and none it cannot', (role) => {
    const opens = portalNavItems(role)
      .map((item) => item.label)
      .filter((label) => label !== OWN_ACCOUNT)
      .sort();
    expect(sectionsNamedIn(PORTAL_ROLE_DESCRIPTIONS[role])).toEqual(opens);
  });
});
