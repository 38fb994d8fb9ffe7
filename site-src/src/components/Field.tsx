// The pieces of every account and checkout form: the form itself (checked by our rules, not the
// browser's), one labelled field or select with its error message, and the form-level message.
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
  inputMode?: 'numeric' | 'text' | 'email' | 'tel';
  readOnly?: boolean;
}

/** The label (with the required mark) and the error below a control: shared by inputs and selects. */
function Labelled({ id, label, required, error, children }: { id: string; label: string; required: boolean; error: string | null; children: ReactNode }): ReactElement {
  return (
    <div className="field">
      <label className="field__label" htmlFor={id}>
        {required ? `${label} *` : label}
      </label>
      {children}
      {error !== null && (
        <p className="field__error" id={`${id}-error`}>
          {error}
        </p>
      )}
    </div>
  );
}

/** aria attributes tying a control to its error message. */
const invalid = (id: string, error: string | null) => ({ 'aria-invalid': error !== null, 'aria-describedby': error !== null ? `${id}-error` : undefined });

export function Field({ id, label, value, onChange, error = null, type = 'text', autoComplete, required = false, inputMode, readOnly }: FieldProps): ReactElement {
  return (
    <Labelled id={id} label={label} required={required} error={error}>
      <input
        className="field__input"
        id={id}
        name={id}
        type={type}
        value={value}
        autoComplete={autoComplete}
        required={required}
        inputMode={inputMode}
        readOnly={readOnly}
        {...invalid(id, error)}
        onChange={(event) => onChange(event.target.value)}
      />
    </Labelled>
  );
}

export interface SelectFieldProps {
  id: string;
  label: string;
  value: string;
  onChange(value: string): void;
  options: readonly { value: string; label: string }[];
  /** The empty first choice ("Select a country"); none when a value is always chosen. */
  placeholder?: string;
  error?: string | null;
  autoComplete?: string;
  required?: boolean;
}

export function SelectField({ id, label, value, onChange, options, placeholder, error = null, autoComplete, required = false }: SelectFieldProps): ReactElement {
  return (
    <Labelled id={id} label={label} required={required} error={error}>
      <select className="field__input" id={id} name={id} value={value} autoComplete={autoComplete} required={required} {...invalid(id, error)} onChange={(event) => onChange(event.target.value)}>
        {placeholder !== undefined && <option value="">{placeholder}</option>}
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </Labelled>
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
