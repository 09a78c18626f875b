'use client';

import { useEffect, useId, useRef } from 'react';

/**
 * A modal question before a change (the browser's own <dialog>: focus stays inside, Escape
 * cancels, the page behind is inert). Cancel has the focus first, so Enter never confirms by accident.
 * Without a confirmLabel it only explains (what was typed would be refused) and goes back.
 * While `pending`, the confirmed change is being sent: the dialog stays, its buttons disabled, so
 * the second click of a double click lands here and not on whatever is under the dialog.
 */
export function ConfirmDialog({
  title,
  message,
  confirmLabel,
  pending = false,
  pendingLabel = 'Guardando…',
  onConfirm,
  onCancel,
}: {
  title: string;
  message: string;
  confirmLabel?: string;
  pending?: boolean;
  pendingLabel?: string;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const id = useId();
  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
    return () => element?.close();
  }, []);
  return (
    <dialog
      ref={dialog}
      className="confirm"
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-message`}
      aria-busy={pending}
      onCancel={(event) => {
        event.preventDefault();
        if (!pending) onCancel();
      }}
    >
      <h2 id={`${id}-title`}>{title}</h2>
      <p id={`${id}-message`}>{message}</p>
      <div className="actions">
        <button type="button" className="secondary" autoFocus disabled={pending} onClick={onCancel}>
          {confirmLabel ? 'Cancelar' : 'Volver y corregir'}
        </button>
        {confirmLabel && (
          <button type="button" disabled={pending} onClick={onConfirm}>
            {pending ? pendingLabel : confirmLabel}
          </button>
        )}
      </div>
    </dialog>
  );
}
