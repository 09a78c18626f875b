import type { RecordIdentifiers } from '@/lib/core/sealing/masking';

/** How many NITs of an /rtu/nits batch a list shows before folding the rest. */
const SHOWN_IN_LISTS = 3;

/** The NITs of a record's nit column: one, or each of an /rtu/nits batch (stored joined by commas). */
export function nitList(nit: string | null): string[] {
  return (nit ?? '').split(',').filter((part) => part.trim() !== '');
}

/** A record's identifiers, each NIT of a batch on its own, as `maskedIdentifiers` or a reveal gives them. */
export function recordIdentifierList(record: RecordIdentifiers): string[] {
  return record.cui ? [...nitList(record.nit), record.cui] : nitList(record.nit);
}

/**
 * A record's NITs and CUI, each kept whole on one line: a batch of up to 50 NITs written without
 * spaces used to wrap inside its NITs, a few characters a line. In lists (`fold`) only the first
 * few are in sight and the rest open under "y N más", a native disclosure the keyboard reaches.
 */
export function IdentifierList({ identifiers, fold = false }: { identifiers: string[]; fold?: boolean }) {
  // Folding a single identifier would save nothing: "y 1 más" takes its line anyway.
  const shown = fold && identifiers.length > SHOWN_IN_LISTS + 1 ? SHOWN_IN_LISTS : identifiers.length;
  const folded = identifiers.slice(shown);
  const item = (identifier: string, index: number) => (
    <span key={index}>
      <span className="identifier">
        {identifier}
        {index < identifiers.length - 1 ? ',' : ''}
      </span>{' '}
    </span>
  );
  return (
    <div className="identifier-list">
      {identifiers.slice(0, shown).map(item)}
      {folded.length > 0 && (
        <details className="identifier-more">
          <summary>y {folded.length} más</summary>
          {folded.map((identifier, index) => item(identifier, shown + index))}
        </details>
      )}
    </div>
  );
}
