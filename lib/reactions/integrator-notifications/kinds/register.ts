import type { NotificationRecipient } from '@/db/schema';
import type { NotificationContact, NotificationKind, NotificationKindDeclaration } from './notice';

// A list of notice kinds as the rest reads it: the product's (./index.ts) and, in a test, the same
// with one more. Everything that enumerates kinds (the switches, the documentation, the e-mails, the
// events heard) reads one of these, never a list of its own.

export interface NotificationRegistry<K extends string = string> {
  /** In the order Notificaciones and the documentation list them. */
  readonly declarations: readonly NotificationKindDeclaration<K>[];
  readonly kinds: readonly K[];
  /** Those no one turns off: no switch shows them. */
  readonly alwaysSent: readonly K[];
  readonly contact: Readonly<Record<K, NotificationContact>>;
  /** The webhook's `tipo` of each. */
  readonly type: Readonly<Record<K, string>>;
  readonly label: Readonly<Record<K, string>>;
  /** undefined: a condition that is no kind here (the test notice, an administrators' alert). */
  find(kind: string): NotificationKindDeclaration<K> | undefined;
  findType(tipo: string): NotificationKindDeclaration<K> | undefined;
  /** The kinds a recipient may turn off: a contact only its own kinds, the webhook every kind; none always sent. */
  switchable(recipient: NotificationRecipient): K[];
}

/** Each NotificationKind listed: `L` itself, or (not compiling) the kinds missing from it. */
export type EveryKind<L extends readonly { kind: string }[]> = [Exclude<NotificationKind, L[number]['kind']>] extends [never] ? L : { missing: Exclude<NotificationKind, L[number]['kind']> };

/** Refuses two kinds with one value, one `tipo` or one example id, and example ids other than 1 to n. */
export function registerNotificationKinds<K extends string>(declarations: readonly NotificationKindDeclaration<K>[]): NotificationRegistry<K> {
  for (const field of ['kind', 'tipo'] as const) {
    const values = declarations.map((declaration) => declaration[field]);
    if (new Set(values).size !== values.length) throw new Error(`two notice kinds share a ${field}: ${values.join(', ')}`);
  }
  const ids = declarations.map((declaration) => declaration.docs.exampleId).sort((a, b) => a - b);
  if (ids.some((id, index) => id !== index + 1)) throw new Error(`the notice kinds' example ids are not 1 to ${ids.length}, one each: ${ids.join(', ')}`);
  const byKind = new Map<string, NotificationKindDeclaration<K>>(declarations.map((declaration) => [declaration.kind, declaration]));
  const byType = new Map<string, NotificationKindDeclaration<K>>(declarations.map((declaration) => [declaration.tipo, declaration]));
  const each = <V>(value: (declaration: NotificationKindDeclaration<K>) => V) =>
    Object.fromEntries(declarations.map((declaration) => [declaration.kind, value(declaration)])) as Record<K, V>;
  const kinds = declarations.map((declaration) => declaration.kind);
  const alwaysSent = declarations.filter((declaration) => declaration.alwaysSent).map((declaration) => declaration.kind);
  const contact = each((declaration) => declaration.contact);
  return {
    declarations,
    kinds,
    alwaysSent,
    contact,
    type: each((declaration) => declaration.tipo),
    label: each((declaration) => declaration.label),
    find: (kind) => byKind.get(kind),
    findType: (tipo) => byType.get(tipo),
    switchable: (recipient) => kinds.filter((kind) => !alwaysSent.includes(kind) && (recipient === 'webhook' || contact[kind] === recipient)),
  };
}
