import { screen } from '@testing-library/react';
import { renderAt } from '@portal/shared/testing/render';
import { NotFoundPage } from '../NotFoundPage';

afterEach(() => {
  window.__PORTAL_CONFIG__ = undefined;
});

it('offers the configured support address as help', () => {
  window.__PORTAL_CONFIG__ = { links: { campaignUrl: '', supportEmail: 'soporte@acme.pe' } };
  renderAt('/no-existe', <NotFoundPage />);
  expect(screen.getByText(/^¿Necesitas ayuda\?/)).toHaveTextContent('¿Necesitas ayuda? Escríbenos a soporte@acme.pe.');
  expect(screen.getByRole('link', { name: 'soporte@acme.pe' })).toHaveAttribute('href', 'mailto:soporte@acme.pe');
});

it('without a support address configured, points to an administrator instead of an address that reaches nobody', () => {
  window.__PORTAL_CONFIG__ = { links: { campaignUrl: '', supportEmail: '' } };
  renderAt('/no-existe', <NotFoundPage />);
  expect(screen.getByText(/^¿Necesitas ayuda\?/)).toHaveTextContent(
    '¿Necesitas ayuda? Pregunta a un administrador del portal.',
  );
  expect(screen.queryByRole('link')).not.toBeInTheDocument();
});
