'use client';

import {
  createContext,
  useContext,
  useId,
  useRef,
  useState,
  useTransition,
  type FormEvent,
  type InputHTMLAttributes,
  type ReactNode,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
} from 'react';
import type { ActionResult } from '@/lib/flows/auth/action';
import { useActionActivity } from './action-activity';
import { ConfirmDialog } from './confirm-dialog';
import { questionFor, type Confirmation, type Question } from './confirmations';

type ConsoleServerAction<T> = (input: unknown) => Promise<ActionResult<T>>;

// What a Field needs from its form: the server's errors and an id prefix unique to the form, so
// two forms on a page can both have a "monto" field.
const FormContext = createContext<{ errors: Record<string, string>; idPrefix: string }>({ errors: {}, idPrefix: 'field' });

interface ActionFormProps<T> {
  action: ConsoleServerAction<T>;
  children: ReactNode;
  submitLabel: string;
  pendingLabel?: string;
  /** Asked before sending, in a dialog, for changes that are hard to undo or move money. */
  confirmation?: Confirmation;
  /** Clear the inputs after a success (amounts, notes); keep them for edits. */
  resetOnSuccess?: boolean;
  /** Fixed values sent with the form (the id of what is being changed). */
  hidden?: Record<string, string | number>;
  className?: string;
  submitClassName?: string;
  onSuccess?: (data: T) => void;
  /** Called when the change is not made: its question cancelled, or the server refused it. */
  onNotSaved?: () => void;
  /** Content shown after a success, in place of the success message (e.g. a secret shown once). */
  renderSuccess?: (data: T) => ReactNode;
  /**
   * What a success shows stays until this form is sent again, whatever else the user does: a
   * secret shown once must not vanish while it is being copied. Otherwise it goes as soon as the
   * user edits this form or starts another action on the page.
   */
  successStays?: boolean;
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
  confirmation,
  resetOnSuccess = false,
  hidden,
  className = 'stack',
  submitClassName,
  onSuccess,
  onNotSaved,
  renderSuccess,
  successStays = false,
}: ActionFormProps<T>) {
  const [result, setResult] = useState<ActionResult<T> | null>(null);
  // A success notice is about the last thing done: it goes when the next action starts. A refusal
  // stays until its own form is sent again, beside the fields it is about.
  const dropSuccess = () => {
    if (!successStays) setResult((current) => (current?.ok ? null : current));
  };
  const announceAction = useActionActivity(dropSuccess);
  const [pending, startTransition] = useTransition();
  const [question, setQuestion] = useState<{ question: Question; form: HTMLFormElement; values: Record<string, unknown>; confirmed?: boolean } | null>(
    null,
  );
  // One key per submission: a second sending of the same one (a double click) gets the first's
  // answer from the server. A new key after each answer, so the next change is a new submission.
  const [submission, setSubmission] = useState(() => crypto.randomUUID());
  // Set at once, not on the next render: a second click in the same frame must not send again.
  const sending = useRef(false);
  const idPrefix = useId();

  function send(form: HTMLFormElement, values: Record<string, unknown>) {
    if (sending.current) return;
    sending.current = true;
    // The notice of the previous action goes as soon as the next one starts.
    setResult(null);
    announceAction();
    startTransition(async () => {
      try {
        const answer = await action({ ...values, envio: submission });
        setResult(answer);
        // The next sending is a new submission, whatever this one answered.
        setSubmission(crypto.randomUUID());
        if (answer.ok) {
          if (resetOnSuccess) form.reset();
          onSuccess?.(answer.data);
        } else {
          onNotSaved?.();
        }
      } finally {
        sending.current = false;
        // A confirmed question stays on screen until the answer (ConfirmDialog, `pending`).
        setQuestion(null);
      }
    });
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (sending.current) return;
    // Sending starts the next action, even before its question is answered.
    dropSuccess();
    announceAction();
    const form = event.currentTarget;
    const values: Record<string, unknown> = { ...hidden };
    // A chosen file (a deposit slip) goes as itself; a file input left empty sends nothing.
    for (const [key, value] of new FormData(form).entries()) if (typeof value === 'string' || value.size > 0) values[key] = value;
    const asked = confirmation && questionFor(confirmation, values);
    if (asked) setQuestion({ question: asked, form, values });
    else send(form, values);
  }

  return (
    <FormContext.Provider value={{ errors: result && !result.ok ? (result.fieldErrors ?? {}) : {}, idPrefix }}>
      <form
        className={className}
        onSubmit={submit}
        // Editing is starting the next action: the notices of what was done before go.
        onChange={() => {
          dropSuccess();
          announceAction();
        }}
        noValidate
      >
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
      {question && (
        <ConfirmDialog
          {...question.question}
          pending={question.confirmed}
          pendingLabel={pendingLabel}
          onCancel={() => {
            setQuestion(null);
            onNotSaved?.();
          }}
          onConfirm={() => {
            if (question.confirmed) return;
            setQuestion({ ...question, confirmed: true });
            send(question.form, { ...question.values, ...question.question.confirmedFields });
          }}
        />
      )}
    </FormContext.Provider>
  );
}

type FieldProps = {
  name: string;
  label: string;
  hint?: string;
  /** A select with these options instead of a text input. */
  options?: Array<{ value: string; label: string }>;
  /** A text area of these many rows instead of a one-line input (a list pasted from a spreadsheet). */
  rows?: number;
} & Omit<InputHTMLAttributes<HTMLInputElement> & SelectHTMLAttributes<HTMLSelectElement>, 'id' | 'name' | 'children'>;

/**
 * A labelled input (or select) that shows the server's error for its name. It takes plain props,
 * not a render function, so server components can use it too.
 */
export function Field({ name, label, hint, options, rows, ...controlProps }: FieldProps) {
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
      ) : rows ? (
        <textarea {...(controlProps as TextareaHTMLAttributes<HTMLTextAreaElement>)} rows={rows} {...common} />
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
