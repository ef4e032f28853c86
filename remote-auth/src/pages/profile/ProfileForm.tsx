import { useEffect, useState, type FormEvent } from 'react';
import { Alert, ApiError, Button, errorMessage, FALLBACK, TextField, updateUserInfo, useSession } from '@portal/shared';
import { FORM_MESSAGES, profileError } from '../../forms/rules';
import { Form } from '../../components/AuthLayout';

/** Spec §2, §9: '✓ Actualizado' stays 3 s, then the button is idle again. */
export const SAVED_MS = 3000;

type SaveState = 'idle' | 'saving' | 'saved';

const LABELS: Record<SaveState, string> = { idle: 'Guardar cambios', saving: 'Guardando...', saved: '✓ Actualizado' };

/**
 * 'Información del perfil': name and phone, saved with update-user; the stored user is replaced. The page keys it by
 * user id, so a user who arrives after the page (OAuth return) fills it afresh.
 */
export function ProfileForm() {
  const user = useSession((s) => s.user);
  const setUser = useSession((s) => s.setUser);
  const [name, setName] = useState(user?.name ?? '');
  const [phone, setPhone] = useState(user?.phone ?? '');
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
    const problem = user ? profileError(name) : FORM_MESSAGES.userMissing;
    setError(problem ?? null);
    if (problem || !user) return;
    setState('saving');
    try {
      const response = await updateUserInfo(user.id, name.trim(), phone.trim());
      if (!response?.user)
        throw new ApiError((response as { message?: string } | undefined)?.message ?? FALLBACK.updateProfile);
      setUser(response.user);
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
        label="Teléfono"
        type="tel"
        autoComplete="tel"
        value={phone}
        onChange={(e) => setPhone(e.target.value)}
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
