import { isAllowedPicture, shownPicture } from '../picture';

it('accepts the https avatars Google hands out', () => {
  expect(isAllowedPicture('https://lh3.googleusercontent.com/a/ACg8ocJ1x2=s96-c')).toBe(true);
  expect(isAllowedPicture('https://LH5.GoogleUserContent.com/a-/photo.jpg')).toBe(true);
});

it.each([
  ['any other host', 'https://attacker.example/track.png?who=admin'],
  ['plain http on the provider host', 'http://lh3.googleusercontent.com/a/x'],
  ['a look-alike host', 'https://lh3.googleusercontent.com.attacker.example/a'],
  ['a host that only ends in the name', 'https://evilgoogleusercontent.com/a'],
  ['the bare domain', 'https://googleusercontent.com/a'],
  ['a trailing dot', 'https://lh3.googleusercontent.com./a'],
  ['credentials in front of another host', 'https://lh3.googleusercontent.com@attacker.example/a'],
  ['a backslash', 'https://attacker.example\\@lh3.googleusercontent.com/a'],
  ['an explicit port', 'https://lh3.googleusercontent.com:8443/a'],
  ['whitespace', 'https://lh3.googleusercontent.com/a b'],
  ['a data URL', 'data:image/svg+xml,<svg/>'],
  ['javascript', 'javascript:alert(1)'],
  ['a relative path', '/api/avatar.png'],
  ['an overlong URL', `https://lh3.googleusercontent.com/${'a'.repeat(2100)}`],
  ['not a string', 42],
])('refuses %s', (_case, value) => {
  expect(isAllowedPicture(value)).toBe(false);
});

it('shows only allowed pictures (stored ones from before the rule included)', () => {
  expect(shownPicture('https://lh3.googleusercontent.com/a/x')).toBe('https://lh3.googleusercontent.com/a/x');
  expect(shownPicture('https://cdn.example.com/ana.png')).toBeNull();
  expect(shownPicture(null)).toBeNull();
  expect(shownPicture(undefined)).toBeNull();
});
