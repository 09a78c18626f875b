import { and, desc, eq } from 'drizzle-orm';
import { db } from '@/db/client';
import { alertDeliveries, integrations, type AlertDelivery } from '@/db/schema';
import { beyondCursor, cursorInstant, decodeCursor, encodeCursor } from '@/lib/platform/paging/keyset';
import { describeWebhookUrl, withoutUrlSecrets } from '@/lib/platform/security/outbound-urls';

export const ALERTS_PAGE_SIZE = 50;

export interface AlertDeliveryRow extends Omit<AlertDelivery, 'payload'> {
  integrationName: string | null;
  title: string;
}

export interface AlertDeliveriesPage {
  rows: AlertDeliveryRow[];
  older?: string;
}

/** Newest deliveries first, keyset-paged on (created_at, id): a backward scan of alert_deliveries_created_idx. */
export async function listAlertDeliveries(after?: string, pageSize = ALERTS_PAGE_SIZE): Promise<AlertDeliveriesPage> {
  const cursor = decodeCursor(after);
  const rows = await (await db())
    .select({ delivery: alertDeliveries, integrationName: integrations.nombre, cursorTimestamp: cursorInstant(alertDeliveries.createdAt) })
    .from(alertDeliveries)
    .leftJoin(integrations, eq(integrations.id, alertDeliveries.integrationId))
    // The integrators' notifications are on each integration's page, not here.
    .where(and(eq(alertDeliveries.audience, 'administrators'), cursor ? beyondCursor(alertDeliveries.createdAt, alertDeliveries.id, cursor, 'older') : undefined))
    .orderBy(desc(alertDeliveries.createdAt), desc(alertDeliveries.id))
    .limit(pageSize + 1);
  const page = rows.slice(0, pageSize);
  const last = page.at(-1);
  return {
    rows: page.map(({ delivery: { payload, ...delivery }, integrationName }) => ({
      ...delivery,
      // Described again where support staff read them: a row written by an instance of an older
      // version during a rolling deploy (after migration 0006 ran) may still hold a whole URL.
      target: delivery.channel === 'webhook' ? describeWebhookUrl(delivery.target) : delivery.target,
      lastError: delivery.lastError === null ? null : withoutUrlSecrets(delivery.lastError),
      integrationName,
      title: (JSON.parse(payload) as { titulo?: string }).titulo ?? '',
    })),
    older: rows.length > pageSize && last ? encodeCursor({ createdAt: last.cursorTimestamp, id: last.delivery.id }) : undefined,
  };
}
