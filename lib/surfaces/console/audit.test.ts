// Issue 24, defect 15: the audit page listed a one-off event's values as "Nota: — → …", and the
// fields of a change in PostgreSQL's jsonb key order rather than the order people read them.
import { describe, expect, it } from 'vitest';
import { auditChanges } from './audit';

describe('the changes of an audit entry', () => {
  it('states the values of an entry with nothing before, instead of a change from nothing', () => {
    expect(auditChanges({ before: null, after: { amountCentavos: 5000, note: 'Depósito 123' } })).toEqual([
      { field: 'amountCentavos', before: undefined, after: 5000, stated: true },
      { field: 'note', before: undefined, after: 'Depósito 123', stated: true },
    ]);
  });

  it('lists the changed fields in reading order (name, tariff, balance, flags…), whatever order the database kept', () => {
    // jsonb returns shorter keys first: "active" before "nombre" before "tariffCentavos".
    const changes = auditChanges({
      before: { active: true, nombre: 'a', tariffCentavos: 100, isOmisosEnabled: false, zeta: 1 },
      after: { active: false, nombre: 'b', tariffCentavos: 150, isOmisosEnabled: true, zeta: 2 },
    });
    expect(changes.map((change) => change.field)).toEqual(['nombre', 'tariffCentavos', 'active', 'isOmisosEnabled', 'zeta']);
    expect(changes.every((change) => !change.stated)).toBe(true);
  });
});
