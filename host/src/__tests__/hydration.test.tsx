import { act, useState } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { fireEvent } from '@testing-library/react';
import { carryTypedValues, prerenderedRoute } from '../hydration';

function root(path?: string): HTMLElement {
  const element = document.createElement('div');
  if (path) element.setAttribute('data-prerendered', path);
  return element;
}

describe('prerenderedRoute', () => {
  afterEach(() => window.localStorage.clear());

  it('hydrates the prerendered page of a signed-out person at its bare path', () => {
    const found = prerenderedRoute(root('/login'), { pathname: '/login', search: '' });
    expect(found?.route).toMatchObject({ path: '/login', remote: 'auth', module: './LoginPage' });
    expect(found?.hydrate).toBe(true);
    expect(found?.frame).toBe(false);
  });

  it('renders anew in its place when the address has a query (a notice, other links)', () => {
    expect(prerenderedRoute(root('/login'), { pathname: '/login', search: '?error=auth_failed' })?.hydrate).toBe(false);
  });

  it('leaves the markup to an ordinary render for a stored session, another path, or no prerendered page', () => {
    expect(prerenderedRoute(root('/login'), { pathname: '/register', search: '' })).toBeNull();
    expect(prerenderedRoute(root(), { pathname: '/login', search: '' })).toBeNull();
    window.localStorage.setItem('token', 'stored');
    expect(prerenderedRoute(root('/login'), { pathname: '/login', search: '' })).toBeNull();
  });
});

describe("prerenderedRoute: the shell's frame of a user page", () => {
  afterEach(() => window.localStorage.clear());

  it('is hydrated at once at any address of its route, whatever the query', () => {
    window.localStorage.setItem('token', 'stored');
    const found = prerenderedRoute(root('/apps/:id'), { pathname: '/apps/7', search: '?redirect_url=x' });
    expect(found).toMatchObject({ route: { path: '/apps/:id', guard: 'user' }, hydrate: true, frame: true });
    expect(prerenderedRoute(root('/admin/usuarios'), { pathname: '/admin/usuarios', search: '' })?.frame).toBe(true);
  });

  it('is hydrated too when the stored session is gone: its first render is the same, then the guard sends on', () => {
    expect(prerenderedRoute(root('/planes'), { pathname: '/planes', search: '' })?.frame).toBe(true);
  });

  it("is left to an ordinary render at an address its route does not match, or a route the table doesn't have", () => {
    expect(prerenderedRoute(root('/planes'), { pathname: '/apps', search: '' })).toBeNull();
    expect(prerenderedRoute(root('/no-existe'), { pathname: '/no-existe', search: '' })).toBeNull();
  });
});

describe('carryTypedValues', () => {
  /** A controlled form like the sign-in page's: what React holds is what `seen` reports. */
  function SignIn({ seen }: { seen: Record<string, string> }) {
    const [email, setEmail] = useState('');
    const [password, setPassword] = useState('');
    seen.email = email;
    seen.password = password;
    return (
      <form>
        <input
          aria-label="Email"
          type="email"
          autoComplete="username"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
        />
        <input
          aria-label="Contraseña"
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
      </form>
    );
  }

  const PRERENDERED =
    '<form><input type="email" autocomplete="username"><input type="password" autocomplete="current-password"></form>';

  let container: HTMLElement;
  let root: Root | undefined;
  beforeEach(() => {
    container = document.createElement('div');
    container.innerHTML = PRERENDERED;
    document.body.append(container);
  });
  afterEach(() => {
    act(() => root?.unmount());
    root = undefined;
    container.remove();
  });

  /** The form's fields, in order. */
  const fields = () => {
    const [email, password] = [...container.querySelectorAll('input')];
    if (!email) throw new Error('no field');
    return { email, password };
  };

  function renderAnew(seen: Record<string, string>, form = <SignIn seen={seen} />) {
    root = createRoot(container);
    act(() => root?.render(form));
  }

  it('types what was typed into the prerendered form into the page React rendered in its place, focus included', () => {
    const carry = carryTypedValues(container);
    const { email, password } = fields();
    if (!password) throw new Error('no password field');
    email.value = 'ana@example.com';
    password.value = 'Clave-segura-1';
    password.focus();
    const seen: Record<string, string> = {};
    renderAnew(seen);
    expect(seen).toEqual({ email: '', password: '' });
    act(() => carry());
    expect(seen).toEqual({ email: 'ana@example.com', password: 'Clave-segura-1' });
    const fresh = fields();
    expect(fresh.email).not.toBe(email);
    expect(document.activeElement).toBe(fresh.password);
  });

  it('writes over nothing the person typed into the new form, and carries once', () => {
    const carry = carryTypedValues(container);
    fields().email.value = 'antes@example.com';
    const seen: Record<string, string> = {};
    renderAnew(seen);
    const fresh = fields().email;
    act(() => {
      fresh.focus();
      fireEvent.change(fresh, { target: { value: 'despues@example.com' } });
    });
    act(() => carry());
    expect(seen.email).toBe('despues@example.com');
    act(() => fireEvent.change(fresh, { target: { value: '' } }));
    act(() => carry());
    expect(seen.email).toBe('');
  });

  it('carries nothing into a page whose fields are not the same (another page came instead)', () => {
    const carry = carryTypedValues(container);
    fields().email.value = 'ana@example.com';
    const seen: Record<string, string> = {};
    renderAnew(
      seen,
      <form>
        <input aria-label="Buscar" type="search" onChange={(e) => (seen.search = e.target.value)} />
      </form>,
    );
    act(() => carry());
    expect(seen.search).toBeUndefined();
    expect(container.querySelector('input')?.value).toBe('');
  });
});
