// The tabs as a keyboard reaches them: the arrows move between the enabled tabs (round the ends), Home and End go to
// the first and the last; the chosen tab holds the focus and shows its panel.
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { Tabs } from '../Tabs';

const ITEMS = [
  { id: 'miembros', label: 'Miembros' },
  { id: 'puestos', label: 'Puestos' },
  { id: 'licencias', label: 'Licencias', disabled: true },
  { id: 'ajustes', label: 'Ajustes' },
];

function Sections() {
  const [active, setActive] = useState('miembros');
  return (
    <Tabs items={ITEMS} active={active} onChange={setActive} label="Secciones de la empresa">
      <p>Sección {active}</p>
    </Tabs>
  );
}

describe('Tabs', () => {
  it('moves with the arrows, Home and End, skipping a disabled tab', async () => {
    const user = userEvent.setup();
    render(<Sections />);
    const tab = (name: string) => screen.getByRole('tab', { name });
    await user.click(tab('Miembros'));
    await user.keyboard('{End}');
    expect(tab('Ajustes')).toHaveFocus();
    expect(tab('Ajustes')).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('tabpanel')).toHaveTextContent('Sección ajustes');
    await user.keyboard('{ArrowRight}');
    expect(tab('Miembros')).toHaveFocus();
    await user.keyboard('{ArrowLeft}');
    expect(tab('Ajustes')).toHaveFocus();
    await user.keyboard('{ArrowLeft}');
    expect(tab('Puestos')).toHaveFocus();
    await user.keyboard('{Home}');
    expect(tab('Miembros')).toHaveFocus();
    expect(screen.getByRole('tabpanel')).toHaveTextContent('Sección miembros');
  });
});
