'use client';

import { useState, useTransition } from 'react';
import { useActionActivity } from '@/components/console/action-activity';
import type { ActionResult } from '@/lib/surfaces/console/action';

type Save = (input: unknown) => Promise<ActionResult<{ enabled: boolean }>>;

interface ConstanciaSettingsProps {
  integrationId: number;
  enabled: boolean;
  retentionYears: number;
  legalHold: boolean;
  /** Support staff see the settings but cannot change them. */
  readOnly: boolean;
  setConstancias: Save;
  setRetention: Save;
  setLegalHold: Save;
}

const YEARS = Array.from({ length: 11 }, (_, index) => index + 5);

/**
 * The integration's constancias de consulta: whether its lookups may ask for them, how many years
 * their proofs are kept, and a legal hold that stops every purge. Each change saves at once and is audited.
 */
export function ConstanciaSettings(props: ConstanciaSettingsProps) {
  const { integrationId, readOnly } = props;
  const [state, setState] = useState({ enabled: props.enabled, years: props.retentionYears, hold: props.legalHold });
  const [notice, setNotice] = useState<{ what: 'enabled' | 'years' | 'hold'; error?: string } | null>(null);
  const announceAction = useActionActivity(() => setNotice((current) => (current?.error ? current : null)));
  const [pending, startTransition] = useTransition();

  function save(what: 'enabled' | 'years' | 'hold', next: typeof state, call: () => Promise<ActionResult<{ enabled: boolean }>>) {
    const before = state;
    setNotice(null);
    announceAction();
    setState(next);
    startTransition(async () => {
      const result = await call();
      if (!result.ok) setState(before);
      setNotice(result.ok ? { what } : { what, error: result.message });
    });
  }

  const saved = (what: 'enabled' | 'years' | 'hold') => (notice?.what === what && !notice.error ? 'Guardado ✓' : '');
  return (
    <div>
      <SwitchRow
        id="constancias"
        label="Constancias de consulta"
        hint="Con x-constancia: true, cada consulta respondida por el registro trae su constancia firmada."
        saved={saved('enabled')}
        checked={state.enabled}
        disabled={readOnly || pending}
        onToggle={() => save('enabled', { ...state, enabled: !state.enabled }, () => props.setConstancias({ integrationId, enabled: String(!state.enabled) }))}
      />
      <div className="switch-row">
        <div>
          <label htmlFor="constancias-retention">Años que se guardan sus pruebas</label>
          <div className="small muted">El texto de cada constancia se depura con los registros; su prueba de emisión, después de estos años.</div>
        </div>
        <span className="switch-saved small" role="status" data-testid="saved-constancias-retention">
          {saved('years')}
        </span>
        <select
          id="constancias-retention"
          value={state.years}
          disabled={readOnly || pending}
          data-testid="constancias-retention"
          onChange={(event) => {
            const years = Number(event.target.value);
            save('years', { ...state, years }, () => props.setRetention({ integrationId, years: String(years) }));
          }}
        >
          {YEARS.map((years) => (
            <option key={years} value={years}>
              {years} años
            </option>
          ))}
        </select>
      </div>
      <SwitchRow
        id="constancias-hold"
        label="Retención legal"
        hint="Mientras esté activa no se depura nada de sus constancias (ni el texto ni las pruebas)."
        saved={saved('hold')}
        checked={state.hold}
        disabled={readOnly || pending}
        onToggle={() => save('hold', { ...state, hold: !state.hold }, () => props.setLegalHold({ integrationId, enabled: String(!state.hold) }))}
      />
      {notice?.error && (
        <p className="notice error" role="alert">
          Constancias de consulta: {notice.error}
        </p>
      )}
    </div>
  );
}

/** One setting as a switch, its words beside it and "Guardado ✓" once saved. */
function SwitchRow(props: { id: string; label: string; hint: string; saved: string; checked: boolean; disabled: boolean; onToggle: () => void }) {
  return (
    <div className="switch-row">
      <div>
        <div id={`switch-${props.id}-label`}>{props.label}</div>
        <div className="small muted">{props.hint}</div>
      </div>
      <span className="switch-saved small" role="status" data-testid={`saved-${props.id}`}>
        {props.saved}
      </span>
      <button
        type="button"
        role="switch"
        className="switch"
        aria-checked={props.checked}
        aria-labelledby={`switch-${props.id}-label`}
        data-testid={`switch-${props.id}`}
        disabled={props.disabled}
        onClick={props.onToggle}
      />
    </div>
  );
}
