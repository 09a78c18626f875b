'use client';

import { useRouter } from 'next/navigation';
import { useEffect } from 'react';

/**
 * While something on the page is still moving (a bulk job that has not ended), asks the server for
 * the page again every few seconds, in place: what was typed and opened stays. The page stops
 * rendering this once it shows the end, which stops the asking; a hidden tab does not ask either,
 * and asks once at once when it is shown again.
 */
export function RefreshWhileOpen({ everyMs = 3_000 }: { everyMs?: number }) {
  const router = useRouter();
  useEffect(() => {
    let timer: ReturnType<typeof setInterval> | null = null;
    const start = () => {
      timer ??= setInterval(() => router.refresh(), everyMs);
    };
    const stop = () => {
      if (timer !== null) clearInterval(timer);
      timer = null;
    };
    const onVisibility = () => {
      if (document.visibilityState === 'hidden') return stop();
      router.refresh();
      start();
    };
    if (document.visibilityState !== 'hidden') start();
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      stop();
      document.removeEventListener('visibilitychange', onVisibility);
    };
  }, [router, everyMs]);
  return null;
}
