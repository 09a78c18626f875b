'use client';

import { signOut } from 'next-auth/react';

/**
 * Ends the session and opens `path` (the sign-in page, with why) on the host and port the browser
 * is using. next-auth's own redirect is absolute, built from NEXTAUTH_URL, or, with it unset (as
 * in development), from "http://localhost:3000" whatever the app's real address: a browser on
 * another port or host landed on an error page. The sign-out request itself is the same. The page
 * opens even when that request fails: a session still on sends sign-in on to the console.
 */
export async function signOutTo(path: string): Promise<void> {
  try {
    await signOut({ redirect: false });
  } finally {
    window.location.assign(path);
  }
}
