import { activeNavItem } from '../active-item';
import { isIOSUserAgent, isMobileUserAgent } from '../../device/user-agent';

it.each([
  ['/', 'apps'],
  ['', 'apps'],
  ['/apps', 'apps'],
  ['/apps/3', 'apps'],
  ['/planes', 'planes'],
  ['/perfil/', 'perfil'],
  ['//admin/usuarios', 'admin'],
])('the active top navigation item of %p is %p', (path, item) => {
  expect(activeNavItem(path)).toBe(item);
});

it('tells mobile and iOS user agents apart', () => {
  const iphone = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148';
  const android = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/120 Mobile Safari/537.36';
  const desktop = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/120 Safari/537.36';
  expect([isMobileUserAgent(iphone), isIOSUserAgent(iphone)]).toEqual([true, true]);
  expect([isMobileUserAgent(android), isIOSUserAgent(android)]).toEqual([true, false]);
  expect([isMobileUserAgent(desktop), isIOSUserAgent(desktop)]).toEqual([false, false]);
});
