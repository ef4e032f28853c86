import { invitationCodeFor, invitationRegisterPath, registrationInvitation } from './invitation';

const link = { codigo: '482913', email: 'ana@minera.pe' };

describe('registration from an invitation', () => {
  it('carries the address and the code to /register, and reads them back', () => {
    const path = invitationRegisterPath(link);
    expect(path).toBe('/register?email=ana%40minera.pe&invitacion=482913');
    expect(registrationInvitation(new URL(path, 'https://portal.example.com').searchParams)).toEqual(link);
  });

  it('reads no invitation from a malformed code or address', () => {
    expect(registrationInvitation(new URLSearchParams('email=ana%40minera.pe&invitacion=12345'))).toBeNull();
    expect(registrationInvitation(new URLSearchParams('email=ana&invitacion=482913'))).toBeNull();
    expect(registrationInvitation(new URLSearchParams('invitacion=482913'))).toBeNull();
  });

  it('sends the code only with the invited address, whatever its case or spaces', () => {
    expect(invitationCodeFor(' Ana@Minera.pe ', link)).toBe('482913');
    expect(invitationCodeFor('otra@example.com', link)).toBeUndefined();
    expect(invitationCodeFor('ana@minera.pe', null)).toBeUndefined();
  });
});
