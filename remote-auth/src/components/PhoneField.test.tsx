import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import type { PhoneInput } from '../rules/phone';
import { PhoneField } from './PhoneField';

/** The field as a page holds it: the value in state, every change reported. */
function Harness({ error, onChange }: { error?: string; onChange: (next: PhoneInput) => void }) {
  const [value, setValue] = useState<PhoneInput>({ country: 'PE', number: '' });
  return (
    <PhoneField
      value={value}
      error={error}
      onChange={(next) => {
        setValue(next);
        onChange(next);
      }}
    />
  );
}

it('starts on Peru, with the usual countries first and every other one after them', () => {
  render(<Harness onChange={() => undefined} />);
  const country = screen.getByRole('combobox', { name: 'País del teléfono' });
  expect(country).toHaveDisplayValue('Perú (+51)');
  const usual = within(screen.getByRole('group', { name: 'Frecuentes' })).getAllByRole('option');
  expect(usual.map((option) => option.textContent)).toEqual([
    'Perú (+51)',
    'México (+52)',
    'Colombia (+57)',
    'Chile (+56)',
    'Argentina (+54)',
    'Ecuador (+593)',
    'Bolivia (+591)',
    'España (+34)',
    'Estados Unidos (+1)',
  ]);
  const all = within(screen.getByRole('group', { name: 'Todos los países' })).getAllByRole('option');
  expect(all.length).toBeGreaterThan(230);
  expect(all[0]).toHaveTextContent('Afganistán (+93)');
});

it('reports the typed number and the chosen country', async () => {
  const changes: PhoneInput[] = [];
  render(<Harness onChange={(next) => changes.push(next)} />);
  await userEvent.type(screen.getByLabelText('Teléfono'), '55 1234');
  expect(changes.at(-1)).toEqual({ country: 'PE', number: '55 1234' });
  await userEvent.selectOptions(screen.getByRole('combobox', { name: 'País del teléfono' }), 'Alemania (+49)');
  expect(changes.at(-1)).toEqual({ country: 'DE', number: '55 1234' });
  expect(screen.getByRole('combobox', { name: 'País del teléfono' })).toHaveDisplayValue('Alemania (+49)');
});

it('shows its message under the number and ties it to the input', () => {
  render(<Harness error="El teléfono no es válido para el país elegido" onChange={() => undefined} />);
  const number = screen.getByLabelText('Teléfono');
  expect(number).toHaveAttribute('aria-invalid', 'true');
  expect(number).toHaveAccessibleDescription('El teléfono no es válido para el país elegido');
});
