import type { FormEvent } from 'react';
import { useState } from 'react';
import styled from 'styled-components';
import { Alert, Button, Modal, TextField, useSubmit, withFieldLabels } from '@portal/shared';
import { TEXT_ADMIN } from '../../texts';
import { type AppForm, validateAppForm } from './app-form';

const Form = styled.form`
  display: grid;
  grid-template-columns: repeat(auto-fit, minmax(240px, 1fr));
  gap: 14px;
  .wide { grid-column: 1 / -1; }
  .check { display: flex; align-items: center; gap: 8px; min-height: 44px; font-weight: 600; }
  .check input { width: 20px; height: 20px; }
  .actions { grid-column: 1 / -1; display: flex; gap: 12px; justify-content: flex-end; }
`;

/** The form's labels for the API's field names, so that a refusal names what the person sees. */
const APP_FIELD_LABELS = {
  nombre: TEXT_ADMIN.name,
  descripcion: TEXT_ADMIN.description,
  longDescription: TEXT_ADMIN.longDescription,
  iconUrl: TEXT_ADMIN.iconUrl,
  webUrl: TEXT_ADMIN.webUrl,
  iosUrl: TEXT_ADMIN.iosUrl,
  androidUrl: TEXT_ADMIN.androidUrl,
  tags: 'Etiquetas',
} as const;

type TextKey = 'nombre' | 'descripcion' | 'longDescription' | 'iconUrl' | 'webUrl' | 'iosUrl' | 'androidUrl' | 'tags';
type CheckKey = 'isEnabledWeb' | 'isEnabledMovil';

export interface AppFormDialogProps {
  title: string;
  initial: AppForm;
  /** Sends the form; a failure stays in the dialog with the server's words. */
  onSubmit(form: AppForm): Promise<void>;
  onClose(): void;
}

/** 'Nueva aplicación' and 'Editar …' of the apps page: the app's texts, links, platforms and tags. */
export function AppFormDialog({ title, initial, onSubmit, onClose }: AppFormDialogProps) {
  const [form, setForm] = useState(initial);
  const { busy: saving, message, submit } = useSubmit();
  const set = <K extends keyof AppForm>(key: K, value: AppForm[K]) => setForm((f) => ({ ...f, [key]: value }));

  const send = (event: FormEvent) => {
    event.preventDefault();
    void submit({
      problem: validateAppForm(form),
      call: () => onSubmit(form),
      failure: (failure) =>
        failure instanceof Error ? withFieldLabels(failure.message, APP_FIELD_LABELS) : String(failure),
    });
  };

  const text = (key: TextKey, label: string, wide = false) => (
    <div className={wide ? 'wide' : undefined}>
      <TextField label={label} value={form[key]} onChange={(event) => set(key, event.target.value)} disabled={saving} />
    </div>
  );

  const check = (key: CheckKey, label: string) => (
    <label className="check">
      <input
        type="checkbox"
        checked={form[key]}
        onChange={(event) => set(key, event.target.checked)}
        disabled={saving}
      />
      {label}
    </label>
  );

  return (
    <Modal title={title} onClose={onClose}>
      <Form onSubmit={send} noValidate>
        {message && (
          <div className="wide">
            <Alert>{message.text}</Alert>
          </div>
        )}
        {text('nombre', TEXT_ADMIN.name, true)}
        {text('descripcion', TEXT_ADMIN.description, true)}
        {text('longDescription', TEXT_ADMIN.longDescription, true)}
        {text('iconUrl', TEXT_ADMIN.iconUrl)}
        {text('webUrl', TEXT_ADMIN.webUrl)}
        {text('iosUrl', TEXT_ADMIN.iosUrl)}
        {text('androidUrl', TEXT_ADMIN.androidUrl)}
        {check('isEnabledWeb', TEXT_ADMIN.enabledWeb)}
        {check('isEnabledMovil', TEXT_ADMIN.enabledMobile)}
        {text('tags', TEXT_ADMIN.tags, true)}
        <div className="actions">
          <Button $variant="secondary" onClick={onClose} disabled={saving}>
            {TEXT_ADMIN.cancel}
          </Button>
          <Button type="submit" disabled={saving}>
            {saving ? TEXT_ADMIN.saving : TEXT_ADMIN.save}
          </Button>
        </div>
      </Form>
    </Modal>
  );
}
