import { notFound } from 'next/navigation';
import { cache } from 'react';
import { INTEGRATION_SECTIONS, type IntegrationSection } from '@/lib/surfaces/console/integration-sections';
import type { IntegrationView } from '@/lib/flows/integration-management/service';
import { integrationOfAddress } from '@/lib/surfaces/console/integration-pages';

/**
 * The integration a page under /admin/integraciones/[id] is about, read once per request: the
 * sections' layout (its header) and the section itself share the row. An id that is not a number,
 * or names no integration, answers the console's 404.
 */
export const integrationOrNotFound = cache(async (id: string): Promise<IntegrationView> => {
  const integration = await integrationOfAddress(id);
  if (!integration) notFound();
  return integration;
});

/** The tab's title names the section and the integration ("Credenciales · Integración banco-x"), so several open tabs can be told apart. */
export async function sectionTitle(id: string, section: IntegrationSection): Promise<string> {
  const name = `Integración ${(await integrationOrNotFound(id)).nombre}`;
  return section === 'resumen' ? name : `${INTEGRATION_SECTIONS.find((entry) => entry.key === section)!.label} · ${name}`;
}
