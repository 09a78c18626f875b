'use client';

import { useId, useRef, useState, type ChangeEvent } from 'react';
import type { ActionResult } from '@/lib/surfaces/console/action';
import { integrationChoiceLabel, isIntegrationChoice, type IntegrationChoice } from '@/lib/surfaces/console/integration-choice';

export type SuggestIntegrations = (input: unknown) => Promise<ActionResult<IntegrationChoice[]>>;

/**
 * Suggestions for a field where people type an integration: there can be thousands, so the field
 * asks the server for the few whose name contains what was typed instead of listing them all.
 * Without JavaScript the field is plain text, and the server takes a name or a number.
 * Returns the input's `list` and `onChange`, and the datalist to render beside it.
 */
export function useIntegrationSuggestions(suggest: SuggestIntegrations) {
  const listId = useId();
  const [suggestions, setSuggestions] = useState<IntegrationChoice[]>([]);
  const asked = useRef(0);

  async function lookUp(text: string) {
    const ticket = ++asked.current;
    // A suggestion picked from the list is already a complete answer.
    if (text.trim().length < 2 || isIntegrationChoice(text)) return setSuggestions([]);
    const answer = await suggest({ texto: text });
    // Only the answer to the latest keystroke counts.
    if (ticket === asked.current && answer.ok) setSuggestions(answer.data);
  }

  return {
    inputProps: {
      list: listId,
      autoComplete: 'off',
      // The form fields take either an input or a select: only an input gets these.
      onChange: (event: ChangeEvent<HTMLInputElement | HTMLSelectElement>) => void lookUp(event.currentTarget.value),
    },
    datalist: (
      <datalist id={listId}>
        {suggestions.map((suggestion) => (
          <option key={suggestion.id} value={integrationChoiceLabel(suggestion)} />
        ))}
      </datalist>
    ),
  };
}

/** A list's integration filter: a text field with suggestions, sent as typed (the page resolves it). */
export function IntegrationFilterField({
  suggest,
  defaultValue,
  problem,
  name = 'integracion',
}: {
  suggest: SuggestIntegrations;
  defaultValue: string;
  problem?: string;
  name?: string;
}) {
  const { inputProps, datalist } = useIntegrationSuggestions(suggest);
  return (
    <div className="field">
      <label htmlFor={name}>Integración</label>
      <input
        id={name}
        name={name}
        defaultValue={defaultValue}
        placeholder="Todas"
        aria-invalid={problem ? true : undefined}
        aria-describedby={problem ? `${name}-error` : undefined}
        {...inputProps}
      />
      {datalist}
      {problem && (
        <span className="error" id={`${name}-error`}>
          {problem}
        </span>
      )}
    </div>
  );
}
