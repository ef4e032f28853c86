import { useEffect, useState, type FormEvent } from 'react';
import { Alert, ApiError, Button, errorMessage, FALLBACK, TextField, updateUserInfo, useSession } from '@portal/shared';
import { type PhoneInput, phoneInputOf, profilePhone } from '../../rules/phone';
import { FORM_MESSAGES, profileError } from '../../rules/forms';
import { Form } from '../../components/AuthLayout';
import { PhoneField } from '../../components/PhoneField';

/** Spec §2, §9: '✓ Actualizado' stays 3 s, then the button is idle again. */
export const SAVED_MS = 3000;

type SaveState = 'idle' | 'saving' | 'saved';

const LABELS: Record<SaveState, string> = { idle: 'Guardar cambios', saving: 'Guardando...', saved: '✓ Actualizado' };

/**
 * 'Información del perfil': name, last name (docs/decisions/0131) and phone, saved with update-user; the stored user
 * is replaced. The page keys it by
 * user id, so a user who arrives after the page (OAuth return) fills it afresh. The phone shows with its country and
 * in national format, and is sent in E.164.
 */
export function ProfileForm() {
  const user = useSession((s) => s.user);
  const setUser = useSession((s) => s.setUser);
  const [name, setName] = useState(user?.name ?? '');
  const [lastName, setLastName] = useState(user?.lastName ?? '');
  const [phone, setPhone] = useState<PhoneInput>(() => phoneInputOf(user?.phone ?? ''));
  const [phoneError, setPhoneError] = useState<string | undefined>();
  const [state, setState] = useState<SaveState>('idle');
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (state !== 'saved') return undefined;
    const timer = setTimeout(() => setState('idle'), SAVED_MS);
    return () => clearTimeout(timer);
  }, [state]);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (state === 'saving') return;
    const problem = user ? profileError(name, lastName) : FORM_MESSAGES.userMissing;
    const sent = profilePhone(phone, user?.phone ?? '');
    setError(problem ?? null);
    setPhoneError('error' in sent ? sent.error : undefined);
    if (problem || !user || 'error' in sent) return;
    setState('saving');
    try {
      const response = await updateUserInfo(user.id, {
        name: name.trim(),
        lastName: lastName.trim(),
        phone: sent.phone,
      });
      if (!response?.user)
        throw new ApiError((response as { message?: string } | undefined)?.message ?? FALLBACK.updateProfile);
      setUser(response.user);
      setName(response.user.name);
      setLastName(response.user.lastName);
      setPhone(phoneInputOf(response.user.phone));
      setState('saved');
    } catch (caught) {
      setError(
        errorMessage(caught, FALLBACK.updateProfile, { name: 'Nombre', lastName: 'Apellido', phone: 'Teléfono' }),
      );
      setState('idle');
    }
  };

  return (
    <Form onSubmit={onSubmit} noValidate>
      {error && <Alert tone="error">{error}</Alert>}
      <TextField label="Nombre" autoComplete="given-name" value={name} onChange={(e) => setName(e.target.value)} />
      <TextField
        label="Apellido"
        autoComplete="family-name"
        value={lastName}
        onChange={(e) => setLastName(e.target.value)}
      />
      <PhoneField
        value={phone}
        error={phoneError}
        onChange={(next) => {
          setPhone(next);
          // An error shown clears once the number is corrected (as on /register).
          if (phoneError) {
            const checked = profilePhone(next, user?.phone ?? '');
            setPhoneError('error' in checked ? checked.error : undefined);
          }
        }}
      />
      <TextField label="Email" type="email" value={user?.email ?? ''} readOnly disabled />
      <div>
        <Button type="submit" disabled={state === 'saving'}>
          {LABELS[state]}
        </Button>
      </div>
    </Form>
  );
}
