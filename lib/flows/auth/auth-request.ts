import { AsyncLocalStorage } from 'node:async_hooks';
import { requestClientIp } from '@/lib/core/limits/client-ip';
import { env } from '@/lib/platform/settings/env';
import type { SessionOrigin } from './sessions';

// The request next-auth is answering, for what its callbacks are not given: a sign-in through the
// identity provider records its session with the browser's address and User-Agent, as a password
// sign-in does from the credentials it is handed.
const current = new AsyncLocalStorage<Request>();

/** Runs `answer` with `request` as the one next-auth is answering. */
export function answeringAuthRequest<T>(request: Request, answer: () => T): T {
  return current.run(request, answer);
}

/** Where the sign-in being answered comes from; empty outside a request to next-auth. */
export function authRequestOrigin(): SessionOrigin {
  const request = current.getStore();
  if (!request) return { clientIp: '', userAgent: '' };
  return { clientIp: requestClientIp((name) => request.headers.get(name), env()), userAgent: request.headers.get('user-agent') ?? '' };
}
