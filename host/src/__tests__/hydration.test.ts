import { prerenderedRoute } from '../hydration';

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
