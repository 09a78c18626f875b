import type { ReactNode } from 'react';
import { DateRangeFields, FilterForm, FilterSelect } from '@/components/console/filter-form';
import { LOOKUP_LABELS, LOOKUPS, OUTCOME_LABELS } from '@/lib/vocabulary/labels';
import type { RecordFilters } from '@/lib/core/records/filters';
import { OUTCOMES } from '@/lib/core/records/outcomes';

// The statuses a recorded query can end with: success and each row of the contract's error tables.
const STATUS_CODES = ['200', '400', '401', '402', '403', '404', '429', '500', '502'];

interface RecordsFilterFormProps {
  /** The realm's search route: the form is posted there, and it answers with the list's address (never a NIT or CUI in it). */
  action: string;
  /** The list's own path, for "Quitar filtros" and the date presets. */
  listPath: string;
  /** Whether the list is narrowed by anything, so that "Quitar filtros" is offered. */
  narrowed: boolean;
  /** The search box: its words are each side's (who reads them, what they have at hand to type). */
  search: { label: string; placeholder: string; hint: string; value: string };
  filters: Pick<RecordFilters, 'consulta' | 'estado' | 'desde'>;
  /** Hasta as the field shows it: what was typed when `hastaProblem` says why it is wrong. */
  hasta: string | undefined;
  hastaProblem: string | undefined;
  /** The list's filters as applied, which the date presets keep. */
  applied: URLSearchParams;
  /** Filters only one side offers (the console's integration), after the search box. */
  children?: ReactNode;
}

/**
 * The filter box above a list of query records, the console's "Registros de consultas" and the
 * portal's "Consultas": the search box, what only that side filters by, the lookup, the outcome or
 * exact status, and the dates.
 */
export function RecordsFilterForm({ action, listPath, narrowed, search, filters, hasta, hastaProblem, applied, children }: RecordsFilterFormProps) {
  return (
    <FilterForm action={action} method="post" reset={narrowed ? { href: listPath, label: 'Quitar filtros' } : undefined}>
      <div className="field search">
        <label htmlFor="identificador">{search.label}</label>
        <input id="identificador" name="identificador" defaultValue={search.value} autoComplete="off" placeholder={search.placeholder} aria-describedby="identificador-ayuda" />
        <span id="identificador-ayuda" className="small muted">
          {search.hint}
        </span>
      </div>
      {children}
      <FilterSelect name="consulta" label="Consulta" value={filters.consulta} all="Todas" options={LOOKUPS.map((lookup) => ({ value: lookup, label: LOOKUP_LABELS[lookup] }))} />
      <FilterSelect name="estado" label="Estado" value={filters.estado} all="Todos">
        <optgroup label="Por resultado">
          {OUTCOMES.map((outcome) => (
            <option key={outcome} value={outcome}>
              {OUTCOME_LABELS[outcome]}
            </option>
          ))}
        </optgroup>
        <optgroup label="Código exacto">
          {STATUS_CODES.map((code) => (
            <option key={code} value={code}>
              {code}
            </option>
          ))}
        </optgroup>
      </FilterSelect>
      <DateRangeFields desde={filters.desde} hasta={hasta} hastaProblem={hastaProblem} presets={{ path: listPath, filters: applied }} />
    </FilterForm>
  );
}
