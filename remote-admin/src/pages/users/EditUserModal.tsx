import { useState } from 'react';
import styled from 'styled-components';
import { Alert, Button, errorMessage, FALLBACK, Modal, TextField, theme, type AdminUser, Select } from '@portal/shared';
import { editUser } from '../../api/admin';
import { FieldLabel } from '../../components/Page';
import { TEXT_ADMIN } from '../../texts';
import {
  ROLE_OPTIONS,
  sessionsEndWarning,
  statusOptions,
  type UserForm,
  userChanges,
  userToForm,
  validateUserChanges,
} from './user-form';

const Form = styled.form`
  display: grid;
  grid-template-columns: repeat(auto-fit, minmax(220px, 1fr));
  gap: 14px;
  .wide { grid-column: 1 / -1; }
  .note { margin: 0; color: ${theme.color.muted}; font-size: 0.9rem; }
  .email { overflow-wrap: anywhere; }
  .actions { grid-column: 1 / -1; display: flex; flex-wrap: wrap; gap: 12px; justify-content: flex-end; }
`;

export interface EditUserModalProps {
  user: AdminUser;
  /** The signed-in administrator: their own role and status cannot be changed here. */
  currentUserId: number | undefined;
  onSaved(user: AdminUser): void;
  onClose(): void;
}

/**
 * 'Editar' of the users table (spec §7 `PUT /auth/editar/{id}`): name, last name, phone, role and status. Sends only
 * what changed; the server writes it to the audit log. Failures stay in the dialog with the server's message, else
 * the spec's 'Error al editar usuario'.
 */
export function EditUserModal({ user, currentUserId, onSaved, onClose }: EditUserModalProps) {
  const [form, setForm] = useState<UserForm>(() => userToForm(user));
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const self = user.id === currentUserId;
  const changes = userChanges(user, form, currentUserId);
  const unchanged = Object.keys(changes).length === 0;
  const warning = sessionsEndWarning(user, changes);
  const set = <K extends keyof UserForm>(key: K, value: UserForm[K]) => setForm((f) => ({ ...f, [key]: value }));

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    if (unchanged || saving) return;
    const invalid = validateUserChanges(changes);
    if (invalid) {
      setError(invalid);
      return;
    }
    setSaving(true);
    setError(null);
    try {
      await editUser(user.id, changes);
      onSaved(user);
    } catch (failure) {
      setError(errorMessage(failure, FALLBACK.editUser));
      setSaving(false);
    }
  };

  return (
    <Modal title={TEXT_ADMIN.editUserTitle} onClose={onClose}>
      <Form onSubmit={submit} noValidate>
        <p className="note wide email">{user.email}</p>
        {error && (
          <div className="wide">
            <Alert>{error}</Alert>
          </div>
        )}
        <TextField
          label={TEXT_ADMIN.name}
          value={form.name}
          maxLength={100}
          autoComplete="off"
          onChange={(event) => set('name', event.target.value)}
          disabled={saving}
        />
        <TextField
          label={TEXT_ADMIN.lastName}
          value={form.lastName}
          maxLength={100}
          autoComplete="off"
          onChange={(event) => set('lastName', event.target.value)}
          disabled={saving}
        />
        <div className="wide">
          <TextField
            label={TEXT_ADMIN.phone}
            type="tel"
            value={form.phone}
            maxLength={32}
            autoComplete="off"
            hint={TEXT_ADMIN.phoneHint}
            onChange={(event) => set('phone', event.target.value)}
            disabled={saving}
          />
        </div>
        <FieldLabel htmlFor="edit-user-role">
          {TEXT_ADMIN.colRole}
          <Select
            id="edit-user-role"
            value={form.role}
            disabled={saving || self}
            onChange={(event) => set('role', Number(event.target.value) as UserForm['role'])}
          >
            {ROLE_OPTIONS.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </Select>
        </FieldLabel>
        <FieldLabel htmlFor="edit-user-status">
          {TEXT_ADMIN.colStatus}
          <Select
            id="edit-user-status"
            value={form.status}
            disabled={saving || self}
            onChange={(event) => set('status', event.target.value as UserForm['status'])}
          >
            {statusOptions(user.status).map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </Select>
        </FieldLabel>
        {self && <p className="note wide">{TEXT_ADMIN.ownAccountNote}</p>}
        {warning && (
          <div className="wide">
            <Alert tone="info">{warning}</Alert>
          </div>
        )}
        <div className="actions">
          <Button $variant="secondary" onClick={onClose} disabled={saving}>
            {TEXT_ADMIN.cancel}
          </Button>
          <Button type="submit" disabled={saving || unchanged}>
            {saving ? TEXT_ADMIN.saving : TEXT_ADMIN.save}
          </Button>
        </div>
      </Form>
    </Modal>
  );
}
