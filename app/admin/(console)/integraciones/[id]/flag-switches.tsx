'use client';

import { useState, useTransition } from 'react';
import type { ActionResult } from '@/lib/auth/action';
import { FLAG_LOOKUP, LOOKUP_LABELS, LOOKUP_ROUTES } from '@/lib/format/labels';
import { FLAG_NAMES, type FlagName, type IntegrationFlags } from '@/lib/integrations/flags';

interface FlagSwitchesProps {
  integrationId: number;
  flags: IntegrationFlags;
  /** Support staff see the switches' state but cannot press them. */
  readOnly: boolean;
  setFlag: (input: unknown) => Promise<ActionResult<{ enabled: boolean }>>;
}

/** The five lookups as switches; each press saves at once and is audited. */
export function FlagSwitches({ integrationId, flags, readOnly, setFlag }: FlagSwitchesProps) {
  const [state, setState] = useState(flags);
  const [error, setError] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();

  function toggle(flag: FlagName) {
    const enabled = !state[flag];
    setError(null);
    setState((current) => ({ ...current, [flag]: enabled }));
    startTransition(async () => {
      const result = await setFlag({ integrationId, flag, enabled: String(enabled) });
      if (!result.ok) {
        setState((current) => ({ ...current, [flag]: !enabled }));
        setError(result.message);
      }
    });
  }

  return (
    <div>
      {FLAG_NAMES.map((flag) => {
        const lookup = FLAG_LOOKUP[flag];
        const labelId = `flag-${flag}`;
        return (
          <div className="switch-row" key={flag}>
            <div>
              <div id={labelId}>{LOOKUP_LABELS[lookup]}</div>
              <div className="small muted mono">{LOOKUP_ROUTES[lookup]}</div>
            </div>
            <button
              type="button"
              role="switch"
              className="switch"
              aria-checked={state[flag]}
              aria-labelledby={labelId}
              data-testid={`switch-${lookup}`}
              disabled={readOnly || pending}
              onClick={() => toggle(flag)}
            />
          </div>
        );
      })}
      {error && (
        <p className="notice error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
