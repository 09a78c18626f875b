'use client';

import Link from 'next/link';
import { useState } from 'react';
import { ActionForm, Field } from '@/components/console/action-form';
import { SecretReveal } from '@/components/console/secret-reveal';
import { FLAG_LOOKUP, FLAG_NAMES } from '@/lib/surfaces/console/lookup-flags';
import { LOOKUP_LABELS } from '@/lib/vocabulary/labels';
import { LOOKUP_PATHS } from '@/lib/vocabulary/lookups';
import { createIntegrationAction } from '../actions';
import { DetailsFields } from '../details-fields';
import { integrationPath } from '@/lib/surfaces/console/integration-sections';

export function NewIntegrationForm() {
  const [created, setCreated] = useState<{ id: number; nombre: string; token: string } | null>(null);

  if (created) {
    return (
      <div className="stack" style={{ display: 'grid', gap: '0.75rem' }}>
        <p className="notice success" role="status">
          Integración «{created.nombre}» creada.
        </p>
        <SecretReveal title={`Token de «${created.nombre}»`} secret={created.token} testId="new-token" />
        <p className="small">
          El integrador lo envía en <code>x-integracion-token</code>, junto a <code>x-integracion-login: {created.nombre}</code>.
        </p>
        <div className="actions">
          <Link className="button" href={integrationPath(created.id)}>
            Ir a la integración
          </Link>
          <button type="button" className="secondary" onClick={() => setCreated(null)}>
            Crear otra
          </button>
        </div>
      </div>
    );
  }

  return (
    <ActionForm action={createIntegrationAction} submitLabel="Crear integración" pendingLabel="Creando…" onSuccess={setCreated}>
      <Field name="nombre" label="Nombre (login)" hint="Es el valor de x-integracion-login: letras, números, punto, guion y guion bajo; sin espacios." required autoComplete="off" maxLength={64} />
      <div className="grid grid-2">
        <Field name="tarifa" label="Tarifa por consulta de catálogo (Q)" hint="Por ejemplo 1.50. Las consultas de RENAP y RTU por NIT no se cobran." inputMode="decimal" defaultValue="0.00" required />
        <Field name="saldoInicial" label="Saldo inicial (Q, opcional)" hint="Se registra como una recarga en el historial." inputMode="decimal" placeholder="0.00" />
      </div>
      <Field name="nota" label="Nota del saldo inicial (opcional)" hint="Por ejemplo el número de depósito." maxLength={500} />
      <fieldset className="field" style={{ border: 0, padding: 0, margin: 0 }}>
        <legend className="label">Consultas habilitadas</legend>
        {FLAG_NAMES.map((flag) => (
          <label key={flag} className="checkbox">
            <input type="checkbox" name={flag} />
            {LOOKUP_LABELS[FLAG_LOOKUP[flag]]} <span className="muted small mono">{LOOKUP_PATHS[FLAG_LOOKUP[flag]]}</span>
          </label>
        ))}
      </fieldset>
      <h2 className="label" style={{ margin: '0.5rem 0 0' }}>
        Datos de la integración (opcionales)
      </h2>
      <p className="small muted" style={{ margin: 0 }}>
        A quién escribir. También se pueden completar después en la página de la integración, donde se registran sus datos de facturación (NIT con el nombre que SAT tiene, dirección fiscal).
      </p>
      <DetailsFields />
    </ActionForm>
  );
}
