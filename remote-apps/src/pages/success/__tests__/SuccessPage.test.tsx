import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderAt } from '@portal/shared/testing/render';
import SuccessPage from '../SuccessPage';

it("/success says '¡Éxito!' and leads to /apps", async () => {
  renderAt('/success', <SuccessPage />);
  expect(screen.getByRole('heading', { name: '¡Éxito!' })).toBeInTheDocument();
  await userEvent.click(screen.getByRole('button', { name: 'Ir al Panel Principal' }));
  expect(screen.getByTestId('location')).toHaveTextContent(/^\/apps$/);
});
