import { useEffect, useRef } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { getRuntimeConfig, isAllowedRedirect, Spinner, useSession, leaveTo } from '@portal/shared';
import { AuthLayout } from '../../components/AuthLayout';

/**
 * /logout (spec §2): ends the session, then goes to the given redirect URL (only an allowed one) or /login, also
 * when the API's logout fails (the store only logs that).
 */
export default function LogoutPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const logout = useSession((s) => s.logout);
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const target = params.get('redirect_url');
    void logout().then(() => {
      if (target && isAllowedRedirect(target, getRuntimeConfig().redirectAllowList)) leaveTo(target);
      else navigate('/login', { replace: true });
    });
  }, [logout, navigate, params]);

  return (
    <AuthLayout title="Cerrar sesión">
      <Spinner label="Cerrando sesión..." />
    </AuthLayout>
  );
}
