import { defaultRelyingPartyId, isIpAddress, isLoopbackHost, passkeysElsewhere } from '../relying-party';

describe('where passkeys can work', () => {
  it('a page on an IP address never can; on this machine it is pointed to localhost, same scheme and port', () => {
    expect(passkeysElsewhere(new URL('http://127.0.0.1:8080/login'), true)).toEqual({
      reason: 'ip-address',
      origin: 'http://localhost:8080',
    });
    expect(passkeysElsewhere(new URL('http://[::1]:8180/perfil'), true)).toEqual({
      reason: 'ip-address',
      origin: 'http://localhost:8180',
    });
    expect(passkeysElsewhere(new URL('https://10.0.0.7/login'), true)).toEqual({ reason: 'ip-address', origin: null });
    expect(passkeysElsewhere(new URL('https://[2001:db8::1]:8443/'), true)).toEqual({
      reason: 'ip-address',
      origin: null,
    });
  });

  it('a page on a host name can, unless the browser hides WebAuthn there (plain http away from this machine)', () => {
    expect(passkeysElsewhere(new URL('http://localhost:8080/login'), true)).toBeNull();
    expect(passkeysElsewhere(new URL('https://portal.example.com/perfil'), true)).toBeNull();
    expect(passkeysElsewhere(new URL('http://portal.lan:8080/login'), false)).toEqual({ reason: 'insecure' });
  });

  it("the API's default relying party: the portal's host, 'localhost' on this machine", () => {
    expect(defaultRelyingPartyId(new URL('http://127.0.0.1:8080'))).toBe('localhost');
    expect(defaultRelyingPartyId(new URL('http://[::1]:8080'))).toBe('localhost');
    expect(defaultRelyingPartyId(new URL('http://localhost:8080'))).toBe('localhost');
    expect(defaultRelyingPartyId(new URL('https://Portal.Example.com'))).toBe('portal.example.com');
  });

  it('tells IP addresses and loopback names apart from host names', () => {
    for (const ip of ['127.0.0.1', '192.168.1.20', '[::1]', '::1', '[2001:db8::1]']) expect(isIpAddress(ip)).toBe(true);
    for (const name of ['localhost', 'portal.example.com', '1.2.3.example.com']) expect(isIpAddress(name)).toBe(false);
    for (const loopback of ['localhost', 'app.localhost', '127.0.0.1', '127.1.2.3', '[::1]'])
      expect(isLoopbackHost(loopback)).toBe(true);
    for (const other of ['10.0.0.1', 'portal.example.com', 'localhost.example.com'])
      expect(isLoopbackHost(other)).toBe(false);
  });
});
