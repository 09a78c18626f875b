import { db } from '@/db/client';
import { queryRecords } from '@/db/schema';
import { storableRecord } from './storable';
import type { QueryRecordInput } from './types';

/** Records a lookup that is not billed (person registry, RTU by NIT): one insert. */
export async function recordUnbilledQuery(record: QueryRecordInput): Promise<void> {
  await (await db()).insert(queryRecords).values({ ...storableRecord(record), chargedCentavos: 0, tariffCentavos: null });
}
