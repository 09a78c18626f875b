'use client';

import {
  createContext,
  useContext,
  useId,
  useState,
  useTransition,
  type FormEvent,
  type InputHTMLAttributes,
  type ReactNode,
  type SelectHTMLAttributes,
} from 'react';
import type { ActionResult } from '@/lib/auth/action';

type ConsoleServerAction<T> = (input: unknown) => Promise<ActionResult<T>>;

// What a Field needs from its form: the server's errors and an id prefix unique to the form, so
// two forms on a page can both have a "monto" field.
const FormContext = createContext<{ errors: Record<string, string>; idPrefix: string }>({ errors: {}, idPrefix: 'field' });

interface ActionFormProps<T> {
  action: ConsoleServerAction<T>;
  children: ReactNode;
  submitLabel: string;
  pendingLabel?: string;
  /** Asked before sending, for changes that are hard to undo. */
  confirmMessage?: string;
  /** Clear the inputs after a success (amounts, notes); keep them for edits. */
  resetOnSuccess?: boolean;
  /** Fixed values sent with the form (the id of what is being changed). */
  hidden?: Record<string, string | number>;
  className?: string;
  submitClassName?: string;
  onSuccess?: (data: T) => void;
  /** Content shown after a success, in place of the success message (e.g. a secret shown once). */
  renderSuccess?: (data: T) => ReactNode;
}

/**
 * A console form bound to a server action. The action receives the form's fields as a plain
 * object and answers with a message, field errors or data. Inputs are kept on error so the user
 * can fix them instead of typing everything again.
 */
export function ActionForm<T>({
  action,
  children,
  submitLabel,
  pendingLabel = 'Guardando…',
  confirmMessage,
  resetOnSuccess = false,
  hidden,
  className = 'stack',
  submitClassName,
  onSuccess,
  renderSuccess,
}: ActionFormProps<T>) {
  const [result, setResult] = useState<ActionResult<T> | null>(null);
  const [pending, startTransition] = useTransition();
  const idPrefix = useId();

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (confirmMessage && !window.confirm(confirmMessage)) return;
    const form = event.currentTarget;
    const values: Record<string, unknown> = { ...hidden };
    for (const [key, value] of new FormData(form).entries()) if (typeof value === 'string') values[key] = value;
    startTransition(async () => {
      const answer = await action(values);
      setResult(answer);
      if (answer.ok) {
        if (resetOnSuccess) form.reset();
        onSuccess?.(answer.data);
      }
    });
  }

  return (
    <FormContext.Provider value={{ errors: result && !result.ok ? (result.fieldErrors ?? {}) : {}, idPrefix }}>
      <form className={className} onSubmit={submit} noValidate>
        {children}
        <div className="actions">
          <button type="submit" className={submitClassName} disabled={pending}>
            {pending ? pendingLabel : submitLabel}
          </button>
        </div>
        {result && !result.ok && (
          <p className="notice error" role="alert">
            {result.message}
          </p>
        )}
        {result?.ok && renderSuccess?.(result.data)}
        {result?.ok && !renderSuccess && result.message && (
          <p className="notice success" role="status">
            {result.message}
          </p>
        )}
      </form>
    </FormContext.Provider>
  );
}

type FieldProps = {
  name: string;
  label: string;
  hint?: string;
  /** A select with these options instead of a text input. */
  options?: Array<{ value: string; label: string }>;
} & Omit<InputHTMLAttributes<HTMLInputElement> & SelectHTMLAttributes<HTMLSelectElement>, 'id' | 'name' | 'children'>;

/**
 * A labelled input (or select) that shows the server's error for its name. It takes plain props,
 * not a render function, so server components can use it too.
 */
export function Field({ name, label, hint, options, ...controlProps }: FieldProps) {
  const { errors, idPrefix } = useContext(FormContext);
  const error = errors[name];
  const id = `${idPrefix}-${name}`;
  const describedBy = [hint && `${id}-hint`, error && `${id}-error`].filter(Boolean).join(' ') || undefined;
  const common = { id, name, 'aria-invalid': Boolean(error), 'aria-describedby': describedBy };
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {options ? (
        <select {...(controlProps as SelectHTMLAttributes<HTMLSelectElement>)} {...common}>
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      ) : (
        <input {...(controlProps as InputHTMLAttributes<HTMLInputElement>)} {...common} />
      )}
      {hint && (
        <span className="hint" id={`${id}-hint`}>
          {hint}
        </span>
      )}
      {error && (
        <span className="error" id={`${id}-error`}>
          {error}
        </span>
      )}
    </div>
  );
}
