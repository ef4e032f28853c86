import { screen } from '@testing-library/react';
import { renderAt } from '../../testing/render';
import PersonalDataPage from './PersonalDataPage';

it('tells how to ask for deletion, with the configured support address and the time frames', () => {
  window.__PORTAL_CONFIG__ = {
    links: { campaignUrl: 'https://c.example.com', supportEmail: 'privacidad@portal.example.com' },
  };
  renderAt('/playstoreapps/beto/datos-personales', <PersonalDataPage />);
  expect(screen.getByRole('link', { name: 'privacidad@portal.example.com' })).toHaveAttribute(
    'href',
    'mailto:privacidad@portal.example.com',
  );
  expect(screen.getByText('Tu nombre completo.')).toBeInTheDocument();
  expect(screen.getByText('El email de tu cuenta.')).toBeInTheDocument();
  expect(screen.getByText(/tipo de eliminación/)).toBeInTheDocument();
  expect(screen.getByText(/1 a 3 días hábiles/)).toBeInTheDocument();
  expect(screen.getByText(/5 a 7 días hábiles/)).toBeInTheDocument();
  expect(screen.getByText(/irreversible/)).toBeInTheDocument();
});

it('without a support address configured, says who to ask instead of an address that reaches nobody', () => {
  window.__PORTAL_CONFIG__ = { links: { campaignUrl: 'https://c.example.com', supportEmail: '' } };
  renderAt('/playstoreapps/beto/datos-personales', <PersonalDataPage />);
  expect(screen.getByText(/^Puedes solicitar la eliminación/)).toHaveTextContent(
    'Puedes solicitar la eliminación de tu cuenta y de tus datos personales de Beto Pro y del portal a un administrador del portal.',
  );
  expect(screen.queryByRole('link')).not.toBeInTheDocument();
  expect(screen.getByText(/5 a 7 días hábiles/)).toBeInTheDocument();
});
