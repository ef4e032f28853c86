import { splitLines, urisProblem } from './oidc-uris';

describe('splitLines', () => {
  it('reads one address a line, trimmed, without blank lines or repeats', () => {
    expect(
      splitLines('  https://a.example.com/cb \r\n\n https://b.example.com/cb\nhttps://a.example.com/cb\n  '),
    ).toEqual(['https://a.example.com/cb', 'https://b.example.com/cb']);
    expect(splitLines('')).toEqual([]);
    expect(splitLines(' \n \n')).toEqual([]);
  });
});

describe('urisProblem', () => {
  const LABEL = 'URIs de redirección';

  it('accepts https addresses, and http only on the loopback interface', () => {
    expect(
      urisProblem(LABEL, [
        'https://app.example.com/oidc/callback',
        'https://app.example.com:8443/cb?tenant=1',
        'http://localhost:5173/callback',
        'http://127.0.0.1:49152/',
        'http://[::1]:8080/cb',
      ]),
    ).toBeNull();
    expect(urisProblem(LABEL, [])).toBeNull();
  });

  it('names the field and the first refused address', () => {
    expect(urisProblem(LABEL, ['https://ok.example.com/cb', 'http://app.example.com/cb', 'ftp://x'])).toBe(
      'URIs de redirección: «http://app.example.com/cb» debe ser una dirección https:// completa (http:// solo para ' +
        'localhost o 127.0.0.1), sin fragmento (#)',
    );
  });

  it('refuses fragments, credentials, relative and ambiguous addresses', () => {
    for (const uri of [
      'https://app.example.com/cb#x',
      'https://app.example.com/cb#',
      'https://usuario:clave@app.example.com/cb',
      '/callback',
      '//app.example.com/cb',
      'app.example.com/cb',
      'https://app.example.com\\@evil.example.com/',
      'https://app.example.com/c b',
      'https:///cb',
    ])
      expect(urisProblem(LABEL, [uri])).not.toBeNull();
  });

  it("accepts an app's own scheme only where asked (a public client's return addresses)", () => {
    for (const uri of ['betopro://auth/success', 'com.empresa.planta:/oauth2redirect', 'controlmax://inicio']) {
      expect(urisProblem(LABEL, [uri], 'app')).toBeNull();
      expect(urisProblem(LABEL, [uri])).not.toBeNull();
    }
    expect(urisProblem(LABEL, ['betopro://auth'], 'app')).toBeNull();
  });

  it('never accepts a scheme that runs a script, reads a file or starts a program, even for an app', () => {
    for (const uri of [
      'javascript://%0aalert(1)',
      'data:text/html,hola',
      'file:///etc/passwd',
      'vbscript:msgbox',
      'intent://scan#Intent;end',
      'ms-msdt:/id',
      'search-ms:query=x',
      'mailto:a@b.c',
    ])
      expect(urisProblem(LABEL, [uri], 'app')).toContain('el esquema de la app');
  });

  it('takes https alone for an initiate-login URI, even on the loopback interface', () => {
    expect(
      urisProblem(LABEL, ['https://localhost:8443/iniciar', 'https://app.example.com/iniciar'], 'https'),
    ).toBeNull();
    for (const uri of ['http://localhost:3000/iniciar', 'http://127.0.0.1/iniciar', 'betopro://iniciar'])
      expect(urisProblem(LABEL, [uri], 'https')).toBe(
        `${LABEL}: «${uri}» debe ser una dirección https:// completa, también en localhost, sin fragmento (#)`,
      );
  });
});
