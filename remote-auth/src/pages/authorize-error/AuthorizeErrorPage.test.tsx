import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderAt } from '../../testing/render';
import AuthorizeErrorPage from './AuthorizeErrorPage';

const TITLE = 'No se pudo iniciar sesión en la aplicación';

it.each([
  ['cliente_desconocido', 'La aplicación que te envió aquí no está registrada en el portal.'],
  [
    'redireccion_no_registrada',
    'La dirección a la que la aplicación pidió volver no está registrada en el portal. Por seguridad no te enviamos allí.',
  ],
  ['solicitud_invalida', 'La solicitud de la aplicación no es válida.'],
  [
    'solicitud_expirada',
    'La solicitud de inicio de sesión expiró o no es válida. Vuelve a la aplicación e inténtalo de nuevo.',
  ],
  ['error_servidor', 'Ocurrió un error en el portal. Inténtalo de nuevo más tarde.'],
])('motivo=%s shows its fixed text under the title', async (motivo, text) => {
  renderAt(`/autorizar/error?motivo=${motivo}`, <AuthorizeErrorPage />);
  const heading = screen.getByRole('heading', { level: 1, name: TITLE });
  await waitFor(() => expect(heading).toHaveFocus());
  expect(screen.getByText(text)).toBeInTheDocument();
});

it('never shows text from the address: an unknown motivo reads as an invalid request', () => {
  renderAt(
    '/autorizar/error?motivo=Tu%20cuenta%20fue%20bloqueada&error_description=Llama%20al%20555',
    <AuthorizeErrorPage />,
  );
  expect(screen.getByText('La solicitud de la aplicación no es válida.')).toBeInTheDocument();
  expect(screen.getByRole('main')).not.toHaveTextContent(/bloqueada|555/);
});

it("'Ir a Aplicaciones' goes to /apps", async () => {
  renderAt('/autorizar/error', <AuthorizeErrorPage />);
  expect(screen.getByText('La solicitud de la aplicación no es válida.')).toBeInTheDocument();
  await userEvent.click(screen.getByRole('button', { name: 'Ir a Aplicaciones' }));
  expect(screen.getByTestId('location')).toHaveTextContent(/^\/apps$/);
});
