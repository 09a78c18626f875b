'use client';

import { useEffect } from 'react';

/**
 * Takes a single-use link's code out of the address bar once its page has it in the form: the
 * form posts it, and the address (history, a shared screen, a bookmark) no longer carries it.
 */
export function ForgetLinkCode() {
  useEffect(() => {
    const url = new URL(window.location.href);
    if (!url.search) return;
    window.history.replaceState(window.history.state, '', url.pathname);
  }, []);
  return null;
}
