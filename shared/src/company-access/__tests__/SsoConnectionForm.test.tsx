// The one company sign-in form as both pages use it: the protocol's small part and, once, the domains, the password,
// the refusal and 'Guardar'; the bodies the API receives for each protocol.
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ApiError } from '../../api/client';
import type { CompanyProvider, CompanyProviderInput } from '../../types/entities';
import { SsoConnectionForm, type SsoConnectionFormProps } from '../SsoConnectionForm';

const OIDC: CompanyProvider = {
  tipo: 'oidc',
  issuer: 'https://login.minera.pe',
  clientId: 'portal-minera',
  dominios: ['minera.pe'],
  permitirContrasena: false,
  redirectUri: 'https://api.portal.test/auth/empresa/callback',
  ultimoError: null,
  ultimoErrorEn: null,
  ultimoAcceso: null,
  actualizado: '2027-02-01T10:00:00.000Z',
};

function show(props: Partial<SsoConnectionFormProps> = {}) {
  const sent: CompanyProviderInput[] = [];
  const onSaved = jest.fn();
  const all: SsoConnectionFormProps = {
    kind: 'oidc',
    current: null,
    proved: ['minera.pe'],
    platform: false,
    save: async (input) => {
      sent.push(input);
      return {};
    },
    onSaved,
    ...props,
  };
  const view = render(<SsoConnectionForm {...all} />);
  return {
    sent,
    onSaved,
    rerender: (next: Partial<SsoConnectionFormProps>) => view.rerender(<SsoConnectionForm {...all} {...next} />),
  };
}

it('changes an OpenID Connect connection: the secret kept when empty, the domains and password as saved', async () => {
  const user = userEvent.setup();
  const { sent, onSaved } = show({ current: OIDC, proved: ['minera.pe', 'andina.pe'] });
  expect(screen.getByLabelText('Emisor (issuer)')).toHaveValue('https://login.minera.pe');
  expect(screen.getByText('Vacío: se mantiene el actual.')).toBeInTheDocument();
  expect(screen.getByLabelText('minera.pe')).toBeChecked();
  expect(screen.getByLabelText('andina.pe')).not.toBeChecked();
  expect(screen.getByLabelText('Permitir también la contraseña del portal')).not.toBeChecked();
  await user.click(screen.getByLabelText('andina.pe'));
  await user.click(screen.getByRole('button', { name: 'Guardar' }));
  expect(sent).toEqual([
    {
      issuer: 'https://login.minera.pe',
      clientId: 'portal-minera',
      dominios: ['minera.pe', 'andina.pe'],
      permitirContrasena: false,
    },
  ]);
  expect(onSaved).toHaveBeenCalledTimes(1);
});

it('a platform administrator replaces it by SAML with a metadata address and typed domains, told so first', async () => {
  const user = userEvent.setup();
  const { sent } = show({ kind: 'saml', current: OIDC, platform: true });
  expect(
    screen.getByText('Al guardar, este acceso sustituye al de OpenID Connect que la empresa tiene ahora.'),
  ).toBeInTheDocument();
  await user.type(screen.getByLabelText('URL de metadatos del proveedor'), ' https://adfs.minera.pe/metadata.xml ');
  await user.type(screen.getByLabelText('Otros dominios (separados por comas)'), 'Andina.pe, minera.pe');
  await user.click(screen.getByRole('button', { name: 'Guardar' }));
  expect(sent).toEqual([
    {
      tipo: 'saml',
      urlMetadatos: 'https://adfs.minera.pe/metadata.xml',
      dominios: ['minera.pe', 'andina.pe'],
      permitirContrasena: false,
    },
  ]);
});

it("ticks a domain proved after the form opened, until the person chooses; the API's refusal names the form's labels", async () => {
  const user = userEvent.setup();
  const { sent, rerender } = show({
    proved: [],
    save: async (input) => {
      sent.push(input);
      throw new ApiError("Datos inválidos: 'issuer' no es válido", 400);
    },
  });
  expect(screen.getByText(/no tiene dominios verificados/)).toBeInTheDocument();
  rerender({ proved: ['vicuna.com.pe'] });
  expect(screen.getByLabelText('vicuna.com.pe')).toBeChecked();
  await user.click(screen.getByLabelText('vicuna.com.pe'));
  await user.type(screen.getByLabelText('Emisor (issuer)'), 'https://login.vicuna.pe');
  await user.type(screen.getByLabelText('ID de cliente'), 'portal');
  await user.type(screen.getByLabelText('Secreto de cliente'), 's3creto');
  await user.click(screen.getByRole('button', { name: 'Guardar' }));
  expect(screen.getByRole('alert')).toHaveTextContent('Elige al menos un dominio');
  expect(sent).toEqual([]);
  await user.click(screen.getByLabelText('vicuna.com.pe'));
  await user.click(screen.getByRole('button', { name: 'Guardar' }));
  expect(await screen.findByRole('alert')).toHaveTextContent("Datos inválidos: 'Emisor (issuer)' no es válido");
  expect(sent).toHaveLength(1);
});
