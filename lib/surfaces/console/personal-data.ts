// «Accesos a datos personales»: who saw full identifiers, exported or replayed, one page at a
// time, with the console's users the filter names.
import { listAccessPage, type AccessFilters } from '@/lib/core/personal-data/access-log';
import { listConsoleUsers } from '@/lib/flows/auth/users';

export async function personalDataAccessView(filters: AccessFilters, after: string | undefined) {
  const [page, users] = await Promise.all([listAccessPage(filters, after), listConsoleUsers()]);
  return { page, users };
}
