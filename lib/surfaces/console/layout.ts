// What every console page's frame shows: the sections the user's role may open, the pending
// top-up requests counted on theirs.
import { pendingTopUpCount } from '@/lib/flows/top-ups/requests';
import type { ConsoleUserSession } from '@/lib/flows/auth/session';
import { hasRole } from '@/lib/flows/auth/session';
import { CONSOLE_NAVIGATION, TOP_UP_REQUESTS_PATH } from '@/lib/surfaces/console/navigation';

export interface ConsoleMenuItem {
  href: string;
  label: string;
  count?: { value: number; means: string };
}

export async function consoleMenu(user: ConsoleUserSession): Promise<ConsoleMenuItem[]> {
  const pending = await pendingTopUpCount();
  return CONSOLE_NAVIGATION.filter((item) => hasRole(user, item.role)).map(({ href, label }) => ({
    href,
    label,
    count: href === TOP_UP_REQUESTS_PATH ? { value: pending, means: pending === 1 ? 'recarga pendiente' : 'recargas pendientes' } : undefined,
  }));
}
