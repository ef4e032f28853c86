import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderAt } from '@portal/shared/testing/render';
import BetoPage from '../BetoPage';
import ControlMaxPage from '../ControlMaxPage';

it.each([
  ['/beto', <BetoPage key="beto" />, 'Beto Pro'],
  ['/control-max', <ControlMaxPage key="cm" />, 'Control Max 360'],
])("%s shows the features and use cases and goes back with 'Volver a Aplicaciones'", async (path, page, name) => {
  renderAt(path, page);
  expect(screen.getByRole('heading', { level: 1, name })).toBeInTheDocument();
  expect(screen.getByRole('heading', { name: 'Funciones' })).toBeInTheDocument();
  expect(screen.getByRole('heading', { name: 'Casos de uso' })).toBeInTheDocument();
  await userEvent.click(screen.getByRole('button', { name: 'Volver a Aplicaciones' }));
  expect(screen.getByTestId('location')).toHaveTextContent(/^\/apps$/);
});

it.each([
  ['/beto', <BetoPage key="beto" />],
  ['/control-max', <ControlMaxPage key="cm" />],
])("%s speaks the portal's Spanish (Peru's): a phone is a 'teléfono', never 'tu móvil'", (path, page) => {
  const { container } = renderAt(path, page);
  expect(container).not.toHaveTextContent(/\b(el|tu|al) móvil\b/i);
  expect(container).toHaveTextContent('teléfono');
});
