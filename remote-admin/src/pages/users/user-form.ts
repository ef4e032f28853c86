import {
  ADMIN_ROLE,
  type AdminUser,
  PERSON_MESSAGES,
  PHONE_MIN_DIGITS,
  USER_ROLE,
  type UserEdit,
  type UserStatus,
} from '@portal/shared';
import { roleLabel } from '../../rules/format';
import { statusLabel } from '../../rules/status';
import { TEXT_USERS } from './texts';

/** The edit dialog's fields as the inputs hold them ('Editar' in the users table, `PUT /auth/editar/{id}`). */
export interface UserForm {
  name: string;
  lastName: string;
  phone: string;
  role: typeof ADMIN_ROLE | typeof USER_ROLE;
  status: UserStatus;
}

export const ROLE_OPTIONS = ([ADMIN_ROLE, USER_ROLE] as const).map((value) => ({ value, label: roleLabel(value) }));

export function userToForm(user: AdminUser): UserForm {
  return {
    name: user.name,
    lastName: user.lastName,
    phone: user.phone,
    role: user.role === ADMIN_ROLE ? ADMIN_ROLE : USER_ROLE,
    status: user.status,
  };
}

/**
 * The statuses an administrator may choose: an account waiting for its emailed code can be verified by hand (it then
 * gets the free plans, as with the code); an active or suspended one can never go back to pending (the server's rule).
 */
export function statusOptions(current: UserStatus): { value: UserStatus; label: string }[] {
  const values: UserStatus[] =
    current === 'pending_verification' ? ['pending_verification', 'active'] : ['active', 'suspended'];
  return values.map((value) => ({ value, label: statusLabel(value) }));
}

/**
 * What the form asks the server to change: only the fields that differ from the user's row, so that an untouched
 * phone stored before phones were checked is not re-checked. Role and status are never sent for the administrator's
 * own account (nobody demotes or suspends themselves; the server refuses it too).
 */
export function userChanges(user: AdminUser, form: UserForm, currentUserId: number | undefined): UserEdit {
  const changes: UserEdit = {};
  const name = form.name.trim();
  const lastName = form.lastName.trim();
  const phone = form.phone.trim();
  if (name !== user.name) changes.name = name;
  if (lastName !== user.lastName) changes.lastName = lastName;
  if (phone !== user.phone) changes.phone = phone;
  if (user.id !== currentUserId) {
    if (form.role !== user.role) changes.role = form.role;
    if (form.status !== user.status) changes.status = form.status;
  }
  return changes;
}

/** The first problem of the fields the form would send, in Spanish; null when it can be sent. */
export function validateUserChanges(changes: UserEdit): string | null {
  if (changes.name !== undefined && changes.name === '') return PERSON_MESSAGES.nameRequired;
  if (changes.lastName !== undefined && changes.lastName === '') return PERSON_MESSAGES.lastNameRequired;
  // An empty phone clears it (accounts from Google or Apple have none); any other must be international.
  if (changes.phone) {
    if (changes.phone.replace(/\D/g, '').length < PHONE_MIN_DIGITS) return PERSON_MESSAGES.phoneTooShort;
    if (!changes.phone.startsWith('+')) return TEXT_USERS.phoneInternational;
  }
  return null;
}

/**
 * The warning the dialog shows when saving does more than the fields say: it closes the person's sessions (the server
 * ends them), or it activates a pending account, which drops the password typed at registration as 'Verificar' does.
 */
export function saveWarning(user: AdminUser, changes: UserEdit): string | null {
  if (changes.status === 'active' && user.status === 'pending_verification') {
    return `${TEXT_USERS.verifyPassword} ${TEXT_USERS.verifyMail(1)}`;
  }
  if (changes.status === 'suspended') return TEXT_USERS.suspendEndsSessions;
  if (changes.role === USER_ROLE && user.role === ADMIN_ROLE) {
    return TEXT_USERS.demoteEndsSessions;
  }
  return null;
}
