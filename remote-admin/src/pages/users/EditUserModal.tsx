import { useState, type FormEvent } from 'react';
import styled from 'styled-components';
import {
  Alert,
  Button,
  errorMessage,
  FALLBACK,
  Modal,
  TextField,
  theme,
  type AdminUser,
  useSubmit,
} from '@portal/shared';
import { editUser } from '../../api/admin';
import { SelectField } from '../../components/SelectField';
import { TEXT_ADMIN } from '../../texts';
import { TEXT_USERS } from './texts';
import {
  ROLE_OPTIONS,
  saveWarning,
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

const NAME_FIELDS = [
  { key: 'name', label: TEXT_ADMIN.name },
  { key: 'lastName', label: TEXT_USERS.lastName },
] as const;

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
  const { busy: saving, message, submit } = useSubmit();
  const self = user.id === currentUserId;
  const changes = userChanges(user, form, currentUserId);
  const unchanged = Object.keys(changes).length === 0;
  const warning = saveWarning(user, changes);
  const set = <K extends keyof UserForm>(key: K, value: UserForm[K]) => setForm((f) => ({ ...f, [key]: value }));

  const send = (event: FormEvent) => {
    event.preventDefault();
    if (unchanged) return;
    void submit({
      problem: validateUserChanges(changes),
      call: () => editUser(user.id, changes),
      success: () => onSaved(user),
      failure: (failure) => errorMessage(failure, FALLBACK.editUser),
    });
  };

  return (
    <Modal title={TEXT_USERS.editUserTitle} onClose={onClose}>
      <Form onSubmit={send} noValidate>
        <p className="note wide email">{user.email}</p>
        {message && (
          <div className="wide">
            <Alert>{message.text}</Alert>
          </div>
        )}
        {NAME_FIELDS.map(({ key, label }) => (
          <TextField
            key={key}
            label={label}
            value={form[key]}
            maxLength={100}
            autoComplete="off"
            onChange={(event) => set(key, event.target.value)}
            disabled={saving}
          />
        ))}
        <div className="wide">
          <TextField
            label={TEXT_USERS.phone}
            type="tel"
            value={form.phone}
            maxLength={32}
            autoComplete="off"
            hint={TEXT_USERS.phoneHint}
            onChange={(event) => set('phone', event.target.value)}
            disabled={saving}
          />
        </div>
        <SelectField
          id="edit-user-role"
          label={TEXT_USERS.colRole}
          value={form.role}
          options={ROLE_OPTIONS}
          disabled={saving || self}
          onChange={(role) => set('role', role)}
        />
        <SelectField
          id="edit-user-status"
          label={TEXT_USERS.colStatus}
          value={form.status}
          options={statusOptions(user.status)}
          disabled={saving || self}
          onChange={(status) => set('status', status)}
        />
        {self && <p className="note wide">{TEXT_USERS.ownAccountNote}</p>}
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
