'use client';

import { useState, useTransition } from 'react';
import { useActionActivity } from '@/components/console/action-activity';
import type { ActionResult } from '@/lib/surfaces/console/action';
import { FLAG_LOOKUP, FLAG_NAMES } from '@/lib/surfaces/console/lookup-flags';
import { LOOKUP_LABELS } from '@/lib/vocabulary/labels';
import { LOOKUP_PATHS } from '@/lib/vocabulary/lookups';
import type { FlagName, IntegrationFlags } from '@/lib/core/integrations/flags';

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
  // The notice belongs to the switch that raised it and goes when the next one is pressed.
  const [notice, setNotice] = useState<{ flag: FlagName; error?: string } | null>(null);
  // "Guardado" goes too when another form of the page starts an action; a refusal stays.
  const announceAction = useActionActivity(() => setNotice((current) => (current?.error ? current : null)));
  const [pending, startTransition] = useTransition();

  function toggle(flag: FlagName) {
    const enabled = !state[flag];
    setNotice(null);
    announceAction();
    setState((current) => ({ ...current, [flag]: enabled }));
    startTransition(async () => {
      const result = await setFlag({ integrationId, flag, enabled: String(enabled) });
      if (!result.ok) setState((current) => ({ ...current, [flag]: !enabled }));
      setNotice(result.ok ? { flag } : { flag, error: result.message });
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
              <div className="small muted mono">{LOOKUP_PATHS[lookup]}</div>
            </div>
            <span className="switch-saved small" role="status" data-testid={`saved-${lookup}`}>
              {notice?.flag === flag && !notice.error ? 'Guardado ✓' : ''}
            </span>
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
      {notice?.error && (
        <p className="notice error" role="alert">
          {LOOKUP_LABELS[FLAG_LOOKUP[notice.flag]]}: {notice.error}
        </p>
      )}
    </div>
  );
}
