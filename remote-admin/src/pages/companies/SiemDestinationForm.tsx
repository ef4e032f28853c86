import { type FormEvent, useEffect, useRef } from 'react';
import { Button, TextAreaField, TextField } from '@portal/shared';
import type { AuditStream } from '../../api/company-types';
import { SelectField } from '../../components/SelectField';
import { TEXT_ADMIN } from '../../texts';
import { type SiemForm, type SiemFormat, type SiemKind, secretAskedAgain } from './siem-form';
import { TEXT_COMPANY as T } from './texts';

/** A text input's props from a field of the form. */
const text = (form: SiemForm, change: (next: SiemForm) => void, key: keyof SiemForm, disabled: boolean) => ({
  value: form[key],
  disabled,
  onChange: (event: { target: { value: string } }) => change({ ...form, [key]: event.target.value }),
});

/**
 * The fields of a SIEM destination: 'Añadir destino', or 'Editar destino' for `editing` (its kind fixed; its secret
 * or client key never shown, kept when left empty and asked again when the address changes).
 */
export function SiemDestinationForm({
  form,
  onChange,
  editing,
  busy,
  onSubmit,
  onCancelEdit,
  onClose,
}: {
  form: SiemForm;
  onChange(next: SiemForm): void;
  editing: AuditStream | null;
  busy: boolean;
  onSubmit(): void;
  onCancelEdit(): void;
  onClose(): void;
}) {
  const title = useRef<HTMLHeadingElement>(null);
  // 'Editar' puts the keyboard at the form it filled.
  useEffect(() => {
    if (editing) title.current?.focus();
  }, [editing]);
  const field = (key: keyof SiemForm) => text(form, onChange, key, busy);
  const again = editing !== null && secretAskedAgain(editing, form);
  const heading = editing ? T.siemEdit : T.siemAdd;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit();
  };

  return (
    <form onSubmit={submit} noValidate aria-label={heading}>
      <h3 ref={title} tabIndex={-1}>
        {heading}
      </h3>
      <SelectField<SiemKind>
        id="siem-kind"
        label={T.siemKind}
        value={form.tipo}
        options={[
          { value: 'syslog', label: T.siemKinds.syslog },
          { value: 'https', label: T.siemKinds.https },
        ]}
        disabled={busy || editing !== null}
        onChange={(tipo) => onChange({ ...form, tipo })}
      />
      {form.tipo === 'syslog' ? (
        <>
          <TextField label={T.siemHost} {...field('host')} />
          <TextField label={T.siemPort} inputMode="numeric" {...field('puerto')} />
          <TextAreaField
            label={T.siemClientCert}
            value={form.certificado}
            disabled={busy}
            onChange={(certificado) => onChange({ ...form, certificado })}
          />
          <TextAreaField
            label={T.siemClientKey}
            hint={again ? T.siemKeyAgain : editing?.tieneClave ? T.siemKeyKept : undefined}
            value={form.clave}
            disabled={busy}
            onChange={(clave) => onChange({ ...form, clave })}
          />
        </>
      ) : (
        <>
          <TextField label={T.siemUrl} {...field('url')} />
          <SelectField<SiemFormat>
            id="siem-format"
            label={T.siemFormat}
            value={form.formato}
            options={[
              { value: 'splunk-hec', label: T.siemFormats['splunk-hec'] },
              { value: 'ndjson', label: T.siemFormats.ndjson },
            ]}
            disabled={busy}
            onChange={(formato) => onChange({ ...form, formato })}
          />
          <TextField label={T.siemHeader} {...field('cabecera')} />
          <TextField
            label={T.siemSecret}
            type="password"
            autoComplete="off"
            hint={again ? T.siemSecretAgain : editing?.tieneSecreto ? T.siemSecretKept : T.siemSecretHint}
            {...field('secreto')}
          />
        </>
      )}
      <TextAreaField
        label={T.siemCa}
        hint={T.siemCaHint}
        value={form.ca}
        disabled={busy}
        onChange={(ca) => onChange({ ...form, ca })}
      />
      <p>
        <Button type="submit" disabled={busy}>
          {editing ? (busy ? T.siemSaving : T.siemSave) : busy ? T.siemAdding : T.siemAdd}
        </Button>{' '}
        {editing ? (
          <Button $variant="secondary" disabled={busy} onClick={onCancelEdit}>
            {T.siemCancelEdit}
          </Button>
        ) : (
          <Button $variant="secondary" onClick={onClose}>
            {TEXT_ADMIN.close}
          </Button>
        )}
      </p>
    </form>
  );
}
