import { verifiedMessage } from './texts';

describe('users page texts', () => {
  it('words the verification success as the spec does, then says how the passwords are chosen', () => {
    expect(verifiedMessage(3)).toBe(
      '3 usuario(s) verificado(s) exitosamente. Cada uno recibirá un correo para elegir su contraseña: la que escribieron al registrarse no se guardó.',
    );
    expect(verifiedMessage(1)).toBe(
      '1 usuario(s) verificado(s) exitosamente. Recibirá un correo para elegir su contraseña: la que escribió al registrarse no se guardó.',
    );
    // Nobody selected was still pending: nobody was activated, and nobody is mailed.
    expect(verifiedMessage(0)).toBe('0 usuario(s) verificado(s) exitosamente');
  });
});
