import Link from 'next/link';
import type { ReactNode } from 'react';
import { datePresets } from '@/lib/platform/time/guatemala-time';

// The filter box above the console's lists (records, audit, balance history): a GET form whose
// fields become the list's search parameters, or a POST to a route that answers with the list's
// address (the records search, which keeps a NIT or CUI out of it).

/** The form, its fields, "Filtrar", and while filtered a link back to the whole list. */
export function FilterForm({
  action,
  method = 'get',
  reset,
  children,
}: {
  action: string;
  method?: 'get' | 'post';
  reset?: { href: string; label: string };
  children: ReactNode;
}) {
  return (
    <form className="card filters" action={action} method={method} role="search" aria-label="Filtros">
      {children}
      <div className="actions">
        <button type="submit">Filtrar</button>
        {reset && (
          <Link className="button secondary" href={reset.href}>
            {reset.label}
          </Link>
        )}
      </div>
    </form>
  );
}

/** A select whose empty first option means "no filter" (Todas, Todos); `children` adds options after `options`. */
export function FilterSelect({
  name,
  label,
  value,
  all,
  options = [],
  children,
}: {
  name: string;
  label: string;
  value: string | number | undefined;
  all: string;
  options?: Array<{ value: string | number; label: string }>;
  children?: ReactNode;
}) {
  return (
    <div className="field">
      <label htmlFor={name}>{label}</label>
      <select id={name} name={name} defaultValue={value ?? ''}>
        <option value="">{all}</option>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
        {children}
      </select>
    </div>
  );
}

/**
 * Desde and Hasta (incluido), as calendar days. A reversed range is an error on Hasta, which then
 * shows what was typed so it can be corrected. With `presets`, links beside them set both to hoy,
 * ayer, the last 7 or 30 days (Guatemala's calendar), keeping the list's other filters.
 */
export function DateRangeFields({
  desde,
  hasta,
  hastaProblem,
  presets,
}: {
  desde: string | undefined;
  hasta: string | undefined;
  hastaProblem?: string;
  /** The list's path and its other filters as applied (without desde, hasta or a page position). */
  presets?: { path: string; filters: URLSearchParams };
}) {
  return (
    <>
      <div className="field">
        <label htmlFor="desde">Desde</label>
        <input id="desde" name="desde" type="date" defaultValue={desde ?? ''} />
      </div>
      <div className="field">
        <label htmlFor="hasta">Hasta (incluido)</label>
        <input
          id="hasta"
          name="hasta"
          type="date"
          defaultValue={hasta ?? ''}
          aria-invalid={hastaProblem ? true : undefined}
          aria-describedby={hastaProblem ? 'hasta-error' : undefined}
        />
        {hastaProblem && (
          <span className="error" id="hasta-error">
            {hastaProblem}
          </span>
        )}
      </div>
      {presets && <DatePresets path={presets.path} filters={presets.filters} desde={desde} hasta={hasta} />}
    </>
  );
}

/** Links (no script needed) that filter the list by a common range at once. */
function DatePresets({ path, filters, desde, hasta }: { path: string; filters: URLSearchParams; desde?: string; hasta?: string }) {
  return (
    <div className="field date-presets">
      <span className="label" aria-hidden="true">
        Periodo
      </span>
      <nav aria-label="Periodos rápidos" className="range-tabs">
        {datePresets().map((preset) => {
          const query = new URLSearchParams(filters);
          for (const key of ['desde', 'hasta', 'despues', 'antes', 'pagina']) query.delete(key);
          query.set('desde', preset.desde);
          query.set('hasta', preset.hasta);
          const current = preset.desde === desde && preset.hasta === hasta;
          return (
            <Link key={preset.label} href={`${path}?${query}`} aria-current={current ? 'true' : undefined} prefetch={false}>
              {preset.label}
            </Link>
          );
        })}
      </nav>
    </div>
  );
}

/** A select's options from a table of labels (value → label). */
export function labelOptions(labels: Record<string, string>): Array<{ value: string; label: string }> {
  return Object.entries(labels).map(([value, label]) => ({ value, label }));
}
