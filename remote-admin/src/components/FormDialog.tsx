import { type FormEvent, type ReactNode, useState } from 'react';
import styled from 'styled-components';
import { Alert, Button, type FieldLabels, Modal, TextField, theme, useSubmit, withFieldLabels } from '@portal/shared';
import { TEXT_ADMIN } from '../texts';

const Form = styled.form`
  display: grid;
  grid-template-columns: repeat(auto-fit, minmax(240px, 1fr));
  gap: 14px;
  .wide { grid-column: 1 / -1; }
  .check { display: flex; align-items: center; gap: 8px; min-height: 44px; font-weight: 600; }
  .check input { width: 20px; height: 20px; }
  .note { margin: 0; color: ${theme.color.muted}; font-size: 0.875rem; }
  fieldset { margin: 0; padding: 8px 14px 12px; border: 1px solid ${theme.color.border}; border-radius: ${theme.radius}; }
  legend { padding: 0 6px; font-weight: 600; }
  .actions { grid-column: 1 / -1; display: flex; gap: 12px; justify-content: flex-end; }
`;

/** A field's value, its change, and whether it waits while the form is sent: spread on an input of the dialog. */
export interface BoundField<V> {
  value: V;
  onChange(value: V): void;
  disabled: boolean;
}

/** What a dialog's fields get: the form's values, a setter, whether it is being sent, and each field bound. */
export interface FormDialogFields<F> {
  form: F;
  set<K extends keyof F>(key: K, value: F[K]): void;
  saving: boolean;
  bind<K extends keyof F>(key: K): BoundField<F[K]>;
}

/** What a dialog made of parts is given: the fields, and a change of the whole form from its latest values. */
export interface FormDialogWhole<F> extends FormDialogFields<F> {
  update(change: (form: F) => F): void;
}

/**
 * The fields of a part of the form (`form[key]`, itself a form): what a dialog made of parts hands each part, so that
 * a part's fields read and set their own values only.
 */
export function partFields<F, K extends keyof F>(fields: FormDialogWhole<F>, key: K): FormDialogFields<F[K]> {
  const form = fields.form[key];
  const set = <J extends keyof F[K]>(part: J, value: F[K][J]) =>
    fields.update((whole) => ({ ...whole, [key]: { ...whole[key], [part]: value } }));
  return {
    form,
    set,
    saving: fields.saving,
    bind: (part) => ({ value: form[part], onChange: (value) => set(part, value), disabled: fields.saving }),
  };
}

export interface FormDialogProps<F> {
  title: string;
  initial: F;
  /** The form's own refusal (shown, nothing sent), or null. */
  validate(form: F): string | null;
  /** Sends the form; a failure stays in the dialog with the server's words. */
  onSubmit(form: F): Promise<void>;
  onClose(): void;
  /** The form's labels for the API's field names, so that a refusal names what the person sees. */
  labels: FieldLabels | ((form: F) => FieldLabels);
  /** What the send button says, idle and while sending, when it is not a save ('Enviar invitación'). */
  submitLabels?: { idle: string; busy: string };
  children(fields: FormDialogWhole<F>): ReactNode;
}

/**
 * The admin panel's create-and-edit dialog: the fields in a grid, the form's own refusal before sending, the server's
 * refusal with the form's labels, 'Cancelar' and 'Guardar' ('Guardando...' while it is sent). The page closes it.
 */
export function FormDialog<F>({
  title,
  initial,
  validate,
  onSubmit,
  onClose,
  labels,
  submitLabels = { idle: TEXT_ADMIN.save, busy: TEXT_ADMIN.saving },
  children,
}: FormDialogProps<F>) {
  const [form, setForm] = useState(initial);
  const { busy: saving, message, submit } = useSubmit();
  const set = <K extends keyof F>(key: K, value: F[K]) => setForm((f) => ({ ...f, [key]: value }));
  const bind = <K extends keyof F>(key: K): BoundField<F[K]> => ({
    value: form[key],
    onChange: (value) => set(key, value),
    disabled: saving,
  });

  const send = (event: FormEvent) => {
    event.preventDefault();
    void submit({
      problem: validate(form),
      call: () => onSubmit(form),
      failure: (failure) =>
        failure instanceof Error
          ? withFieldLabels(failure.message, typeof labels === 'function' ? labels(form) : labels)
          : String(failure),
    });
  };

  return (
    <Modal title={title} onClose={onClose}>
      <Form onSubmit={send} noValidate>
        {message && (
          <div className="wide">
            <Alert>{message.text}</Alert>
          </div>
        )}
        {children({ form, set, saving, bind, update: setForm })}
        <div className="actions">
          <Button $variant="secondary" onClick={onClose} disabled={saving}>
            {TEXT_ADMIN.cancel}
          </Button>
          <Button type="submit" disabled={saving}>
            {saving ? submitLabels.busy : submitLabels.idle}
          </Button>
        </div>
      </Form>
    </Modal>
  );
}

/** A text field of a dialog's grid; `wide` spans the whole row. */
export function FormText({
  label,
  value,
  onChange,
  disabled,
  wide = false,
  hint,
}: BoundField<string> & { label: string; wide?: boolean; hint?: string }) {
  return (
    <div className={wide ? 'wide' : undefined}>
      <TextField
        label={label}
        value={value}
        hint={hint}
        onChange={(event) => onChange(event.target.value)}
        disabled={disabled}
      />
    </div>
  );
}

/** A checkbox of a dialog's grid, its label beside it; `describedBy` names the line that explains it, if any. */
export function CheckField({
  label,
  value,
  onChange,
  disabled,
  describedBy,
}: BoundField<boolean> & { label: string; describedBy?: string }) {
  return (
    <label className="check">
      <input
        type="checkbox"
        checked={value}
        onChange={(event) => onChange(event.target.checked)}
        disabled={disabled}
        aria-describedby={describedBy}
      />
      {label}
    </label>
  );
}
