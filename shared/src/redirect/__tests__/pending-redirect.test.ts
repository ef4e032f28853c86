import { PENDING_REDIRECT_KEY, storePendingRedirect, takePendingRedirect } from '../pending-redirect';

// The targets the pending redirect is checked against (the allow-list's own tests: @portal/contracts).
const ALLOW = ['https://portal.example.com', 'https://*.portal.example.com'];

describe('pending redirect', () => {
  beforeEach(() => localStorage.clear());

  it('is read once and removed on reading', () => {
    storePendingRedirect('https://portal.example.com/x', ALLOW);
    expect(takePendingRedirect(ALLOW)).toBe('https://portal.example.com/x');
    expect(takePendingRedirect(ALLOW)).toBeNull();
    expect(localStorage.getItem(PENDING_REDIRECT_KEY)).toBeNull();
  });

  it('is not stored when the target is not allowed', () => {
    storePendingRedirect('https://evil.com', ALLOW);
    expect(localStorage.getItem(PENDING_REDIRECT_KEY)).toBeNull();
  });

  it('is used only if still allowed when read, and removed either way', () => {
    localStorage.setItem(PENDING_REDIRECT_KEY, 'https://evil.com/');
    expect(takePendingRedirect(ALLOW)).toBeNull();
    expect(localStorage.getItem(PENDING_REDIRECT_KEY)).toBeNull();
  });
});
