// A typed event the core and the flows emit and the composition root (lib/root/reactions.ts) subscribes
// reactions to (alerts, integrators' notices): the code where something happens names no reaction.
// Listeners live on globalThis: Next loads a module once per bundle (instrumentation, each route),
// and a listener subscribed at start must hear an emit from any bundle's copy of the emitter.
import { processSlot } from '@/lib/platform/runtime/process-state';

export type DomainListener<T> = (payload: T) => Promise<void> | void;

export interface DomainEvent<T> {
  readonly name: string;
  /** Adds a listener after those already there; returns the unsubscribe. */
  subscribe(listener: DomainListener<T>): () => void;
  /** Each listener in the order subscribed, each awaited before the next; a listener's error is the emitter's. */
  emit(payload: T): Promise<void>;
  /** On the request path: each listener called now and not awaited. Its listeners must not throw. */
  tell(payload: T): void;
  /**
   * Every listener at once, each awaited, none stopped by another's failure: the errors of those
   * that failed, none when every one took it (for events told again until all have taken them).
   */
  settle(payload: T): Promise<unknown[]>;
}

type Registry = Map<string, Set<DomainListener<unknown>>>;

function listenersOf<T>(name: string): Set<DomainListener<T>> {
  const registry = processSlot<Registry>('domainEventListeners', () => new Map());
  let listeners = registry.get(name);
  if (!listeners) registry.set(name, (listeners = new Set()));
  return listeners as Set<DomainListener<T>>;
}

export function domainEvent<T>(name: string): DomainEvent<T> {
  return {
    name,
    subscribe(listener) {
      listenersOf<T>(name).add(listener);
      return () => listenersOf<T>(name).delete(listener);
    },
    async emit(payload) {
      for (const listener of [...listenersOf<T>(name)]) await listener(payload);
    },
    tell(payload) {
      for (const listener of listenersOf<T>(name)) void listener(payload);
    },
    async settle(payload) {
      const results = await Promise.allSettled([...listenersOf<T>(name)].map(async (listener) => listener(payload)));
      return results.flatMap((result) => (result.status === 'rejected' ? [result.reason] : []));
    },
  };
}
