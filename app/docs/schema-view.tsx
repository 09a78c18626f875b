// Renders a JSON Schema (as the OpenAPI document holds it) as a readable type with its fields.
type Schema = Record<string, unknown>;

const refName = (ref: string) => ref.replace('#/components/schemas/', '');

/** A one-line type: "string | null", "CodigoDescripcion", "arreglo de ActividadEconomica". */
export function typeLabel(schema: Schema | undefined): React.ReactNode {
  if (!schema || Object.keys(schema).filter((key) => key !== 'description').length === 0) return 'cualquier JSON';
  if (typeof schema.$ref === 'string') {
    const name = refName(schema.$ref);
    return <a href={`#schema-${name}`}>{name}</a>;
  }
  const union = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (union && !schema.properties) {
    return union.map((member, index) => (
      <span key={index}>
        {index > 0 && ' | '}
        {typeLabel(member)}
      </span>
    ));
  }
  const types = Array.isArray(schema.type) ? (schema.type as string[]) : schema.type ? [schema.type as string] : [];
  if (types.includes('array')) {
    return (
      <>
        arreglo de {typeLabel(schema.items as Schema)}
        {types.includes('null') && ' | null'}
      </>
    );
  }
  if (types.length === 0 && schema.properties) return 'objeto';
  let label = types.join(' | ');
  if (schema.format) label += ` (${String(schema.format)})`;
  return label;
}

/** "1 elemento", "50 elementos". */
export function count(value: unknown, one: string, many: string): string {
  return `${String(value)} ${value === 1 ? one : many}`;
}

function constraints(schema: Schema): string[] {
  const notes: string[] = [];
  const inner = ((schema.anyOf as Schema[] | undefined)?.find((member) => member.type !== 'null') ?? schema) as Schema;
  if (inner.minItems !== undefined) notes.push(`mínimo ${count(inner.minItems, 'elemento', 'elementos')}`);
  if (inner.maxItems !== undefined) notes.push(`máximo ${count(inner.maxItems, 'elemento', 'elementos')}`);
  if (inner.maxLength !== undefined) notes.push(`máximo ${count(inner.maxLength, 'carácter', 'caracteres')}`);
  if (inner.pattern === '\\S') notes.push('no vacío');
  return notes;
}

export function FieldsTable({ schema }: { schema: Schema }) {
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  const required = new Set((schema.required as string[] | undefined) ?? []);
  const names = Object.keys(properties);
  if (names.length === 0) return <p className="muted">{typeLabel(schema)}</p>;
  return (
    <table className="fields">
      {/* Fixed shares: a long note must not squeeze the type into a column one letter wide. */}
      <colgroup>
        <col className="field-name" />
        <col className="field-type" />
        <col className="field-notes" />
      </colgroup>
      <thead>
        <tr>
          <th>Campo</th>
          <th>Tipo</th>
          <th>Notas</th>
        </tr>
      </thead>
      <tbody>
        {names.map((name) => {
          const property = properties[name]!;
          const inner = (property.anyOf as Schema[] | undefined)?.find((member) => typeof member.description === 'string');
          const description = (property.description ?? inner?.description) as string | undefined;
          const notes = constraints(property);
          return (
            <tr key={name}>
              <td>
                <code>{name}</code>
                {required.has(name) && <span className="required"> requerido</span>}
              </td>
              <td className="field-type">{typeLabel(property)}</td>
              <td>
                {description}
                {notes.length > 0 && <span className="muted"> ({notes.join(', ')})</span>}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
