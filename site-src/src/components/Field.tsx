// The pieces of every account form: the form itself (checked by our rules, not the browser's),
// one labelled field with its error message, and the form-level message.
import type { ReactElement, ReactNode } from 'react';

export interface FieldProps {
  id: string;
  label: string;
  value: string;
  onChange(value: string): void;
  error?: string | null;
  type?: 'text' | 'email' | 'password' | 'tel' | 'date';
  autoComplete?: string;
  required?: boolean;
}

export function Field({ id, label, value, onChange, error = null, type = 'text', autoComplete, required = false }: FieldProps): ReactElement {
  return (
    <div className="field">
      <label className="field__label" htmlFor={id}>
        {required ? `${label} *` : label}
      </label>
      <input
        className="field__input"
        id={id}
        name={id}
        type={type}
        value={value}
        autoComplete={autoComplete}
        required={required}
        aria-invalid={error !== null}
        aria-describedby={error !== null ? `${id}-error` : undefined}
        onChange={(event) => onChange(event.target.value)}
      />
      {error !== null && (
        <p className="field__error" id={`${id}-error`}>
          {error}
        </p>
      )}
    </div>
  );
}

/** The form-level message (the API's, or the spec's), announced when it appears. */
export function FormError({ message }: { message: string | null }): ReactElement | null {
  if (message === null) return null;
  return (
    <p className="form__error" role="alert">
      {message}
    </p>
  );
}

/** A form whose submit runs `onSubmit` (our validation and API call) instead of navigating. */
export function Form({ onSubmit, className = 'form', children }: { onSubmit(): void; className?: string; children: ReactNode }): ReactElement {
  return (
    <form
      className={className}
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit();
      }}
    >
      {children}
    </form>
  );
}
