'use client';

import { useState } from 'react';

/** Copies a text to the clipboard, with a fallback for pages not served over HTTPS. */
export function CopyButton({
  text,
  label = 'Copiar',
  failedHint = 'No se pudo copiar: seleccione el texto y cópielo a mano.',
  accessibleName,
}: {
  text: string;
  label?: string;
  /** What the button copies, for a screen reader, when several "Copiar" share a page (a table's rows). */
  accessibleName?: string;
  /** Said when the browser refuses: the console speaks tú to staff, /docs usted to integrators. */
  failedHint?: string;
}) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');

  async function copy() {
    try {
      if (navigator.clipboard && window.isSecureContext) await navigator.clipboard.writeText(text);
      else copyWithSelection(text);
      setState('copied');
    } catch {
      setState('failed');
    }
  }

  return (
    <>
      <button type="button" className="secondary" onClick={copy} aria-label={accessibleName}>
        {state === 'copied' ? 'Copiado ✓' : label}
      </button>
      {state === 'failed' && (
        <span className="small" role="alert">
          {failedHint}
        </span>
      )}
    </>
  );
}

function copyWithSelection(text: string) {
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.appendChild(area);
  area.select();
  const copied = document.execCommand('copy');
  area.remove();
  if (!copied) throw new Error('copy refused');
}
