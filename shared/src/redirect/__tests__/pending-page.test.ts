import {
  forgetPendingPage,
  isPortalPage,
  keepPendingPages,
  PENDING_PAGE_KEY,
  PENDING_PAGE_TTL_MS,
  storePendingPage,
  takePendingPage,
} from '../pending-page';

beforeEach(() => {
  sessionStorage.clear();
  keepPendingPages();
});

describe('the page a signed-out visitor asked for', () => {
  it('is read once, whole (query and fragment), and only while fresh', () => {
    storePendingPage('/admin/empresas/1?vista=tabla#puestos', 1_000);
    expect(takePendingPage(2_000)).toBe('/admin/empresas/1?vista=tabla#puestos');
    expect(takePendingPage(2_000)).toBeNull();
    storePendingPage('/perfil', 1_000);
    expect(takePendingPage(1_000 + PENDING_PAGE_TTL_MS)).toBeNull();
  });

  it('keeps nothing for the catalogue, where a sign-in lands anyway', () => {
    storePendingPage('/apps');
    storePendingPage('/');
    expect(sessionStorage.getItem(PENDING_PAGE_KEY)).toBeNull();
  });

  it("is never another site's address, as typed or as planted in the tab's storage", () => {
    const elsewhere = [
      '//evil.example/apps',
      '/\\evil.example',
      'https://evil.example/apps',
      'javascript:alert(1)',
      '/perfil\n//evil.example',
      `/${'a'.repeat(600)}`,
      '',
    ];
    for (const path of elsewhere) {
      expect(isPortalPage(path)).toBe(false);
      storePendingPage(path, 1_000);
      expect(sessionStorage.getItem(PENDING_PAGE_KEY)).toBeNull();
      sessionStorage.setItem(PENDING_PAGE_KEY, JSON.stringify({ path, at: 1_000 }));
      expect(takePendingPage(2_000)).toBeNull();
    }
    sessionStorage.setItem(PENDING_PAGE_KEY, '{');
    expect(takePendingPage(2_000)).toBeNull();
    sessionStorage.setItem(PENDING_PAGE_KEY, JSON.stringify({ path: '/perfil', at: 'ayer' }));
    expect(takePendingPage(2_000)).toBeNull();
  });

  it('is forgotten by a sign-out on purpose, and none is kept until the next session starts', () => {
    storePendingPage('/perfil', 1_000);
    forgetPendingPage();
    expect(takePendingPage(2_000)).toBeNull();
    // The guard sees the person signed out on the page they were on before the sign-out takes them to /login.
    storePendingPage('/pagos', 2_000);
    expect(sessionStorage.getItem(PENDING_PAGE_KEY)).toBeNull();
    keepPendingPages();
    storePendingPage('/pagos', 3_000);
    expect(takePendingPage(4_000)).toBe('/pagos');
  });
});
