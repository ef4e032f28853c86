import { redirectUrisRequired } from '../clients';

describe('redirectUrisRequired', () => {
  it('needs no return address for a public client that signs in on devices', () => {
    expect(redirectUrisRequired({ publico: true, dispositivos: true })).toBe(false);
  });

  it('needs one for a public client without devices, and for a confidential client with or without', () => {
    expect(redirectUrisRequired({ publico: true, dispositivos: false })).toBe(true);
    expect(redirectUrisRequired({ publico: false, dispositivos: true })).toBe(true);
    expect(redirectUrisRequired({ publico: false, dispositivos: false })).toBe(true);
  });
});
