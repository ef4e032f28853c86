import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { LoadState } from './LoadState';

const shown = (items: string[]) => (
  <ul>
    {items.map((item) => (
      <li key={item}>{item}</li>
    ))}
  </ul>
);

describe('LoadState', () => {
  it('shows the spinner while loading, then the data', () => {
    const { rerender } = render(
      <LoadState state={{ data: null, error: null }} loading="Cargando cosas" empty="Nada">
        {shown}
      </LoadState>,
    );
    expect(screen.getByText('Cargando cosas')).toBeInTheDocument();
    rerender(
      <LoadState state={{ data: ['uno'], error: null }} loading="Cargando cosas" empty="Nada">
        {shown}
      </LoadState>,
    );
    expect(screen.getByRole('listitem')).toHaveTextContent('uno');
    expect(screen.queryByText('Cargando cosas')).not.toBeInTheDocument();
  });

  it('says the empty text for an empty list or an empty page', () => {
    const { rerender } = render(
      <LoadState state={{ data: [] as string[], error: null }} empty="Nada">
        {shown}
      </LoadState>,
    );
    expect(screen.getByText('Nada')).toBeInTheDocument();
    rerender(
      <LoadState state={{ data: { data: [] as string[] }, error: null }} empty="Nada">
        {(page) => shown(page.data)}
      </LoadState>,
    );
    expect(screen.getByText('Nada')).toBeInTheDocument();
  });

  it('offers a retry while nothing is loaded, and an alert above the data a later load failed to replace', async () => {
    const reload = jest.fn();
    const { rerender } = render(
      <LoadState state={{ data: null, error: 'Falló', reload }} loading="Cargando" empty="Nada">
        {shown}
      </LoadState>,
    );
    expect(screen.getByText('Falló')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button'));
    expect(reload).toHaveBeenCalled();
    rerender(
      <LoadState state={{ data: ['uno'], error: 'Falló', reload }} empty="Nada">
        {shown}
      </LoadState>,
    );
    expect(screen.getByText('Falló')).toBeInTheDocument();
    expect(screen.getByRole('listitem')).toHaveTextContent('uno');
  });
});
