// The lookups' hot statements, compiled once. drizzle's sql template builds a statement's text and
// parameters anew on every call: for a catalog lookup's two statements (about 3.5 KB of text and
// 40 values) that was an eighth of everything the lookup allocated and some 45 µs of its CPU under
// the profiler (docs/performance.md, "Within 2× of the bare handler"). Written with sql.placeholder for its values, a
// statement is compiled once per shape and each call only fills in its values, with drizzle's own
// fillPlaceholders, as drizzle's prepared queries do.
import { fillPlaceholders, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';

/** A statement's text and parameters: values fixed at compilation, and placeholders named by sql.placeholder. */
export interface CompiledStatement {
  readonly text: string;
  readonly params: readonly unknown[];
}

const dialect = new PgDialect();

export function compileStatement(query: SQL): CompiledStatement {
  const { sql: text, params } = dialect.sqlToQuery(query);
  return { text, params };
}

/** The statement's parameters with this call's values in place of its placeholders (a missing one throws). */
export function statementParameters(statement: CompiledStatement, values: Record<string, unknown>): unknown[] {
  return fillPlaceholders(statement.params as unknown[], values);
}

/**
 * Compiles `build(shape)` on the first call with each shape and keeps it: a statement whose text
 * varies with its input (how many search keys a record has, whether it links a NIT and a CUI) has
 * one compiled statement per shape, a handful in all.
 */
export function compiledPerShape<Shape extends string>(build: (shape: Shape) => SQL): (shape: Shape) => CompiledStatement {
  const compiled = new Map<Shape, CompiledStatement>();
  return (shape) => {
    let statement = compiled.get(shape);
    if (!statement) compiled.set(shape, (statement = compileStatement(build(shape))));
    return statement;
  };
}

/**
 * One more part a lookup's own statement commits with its record (a receipt: lib/core/constancias),
 * with its values. Its SQL is the same for every call with the same `name` (only the values vary),
 * so the statement it joins is compiled once per shape and name, not per call.
 *
 * A companion may take money from the integration's balance (a receipt's tariff) when the balance
 * covers it, and is written only then. A statement may update a row once, so the host statement
 * takes `debit` in its own balance update when it has one, or adds `charge` when it has none, and
 * tells `committed` whether the companion was written. A CTE reads only those before it: `fee`
 * comes before the host's balance update, `cte` after the host's record.
 */
export interface StatementCompanion {
  readonly name: string;
  /** What it costs and whether the balance covers it, given what the host statement gives back to the balance (`0` when nothing). */
  fee(credit: SQL): SQL;
  /** Its rows, after the host's `record`. */
  readonly cte: SQL;
  /** What it takes from the balance, for the host's own balance update. */
  readonly debit: SQL;
  /** Its own balance update (a CTE), for a host that does not update the balance. */
  readonly charge: SQL;
  /** Whether it was written: a boolean the host's final select returns as `companion_written`. */
  readonly written: SQL;
  readonly values: Record<string, unknown>;
  /** Told once the host statement committed, with whether the companion was written. */
  committed?(written: boolean): void;
}

/**
 * compiledPerShape for a statement that may carry one companion: without one, one statement per
 * shape; with one, one per shape and companion name (its SQL is fixed by its name).
 */
export function compiledWithCompanion<Shape extends string>(
  build: (shape: Shape, companion?: StatementCompanion) => SQL,
): (shape: Shape, companion?: StatementCompanion) => CompiledStatement {
  const plain = compiledPerShape((shape: Shape) => build(shape));
  const byCompanion = new Map<string, (shape: Shape) => CompiledStatement>();
  return (shape, companion) => {
    if (!companion) return plain(shape);
    let statement = byCompanion.get(companion.name);
    if (!statement) byCompanion.set(companion.name, (statement = compiledPerShape((each: Shape) => build(each, companion))));
    return statement(shape);
  };
}
