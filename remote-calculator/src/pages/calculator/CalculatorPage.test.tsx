import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import CalculatorPage from './CalculatorPage';

function setup() {
  const user = userEvent.setup();
  render(<CalculatorPage />);
  const card = (name: string) => {
    const region = within(screen.getByRole('region', { name }));
    return {
      type: region.getByRole('combobox'),
      min: region.getByRole('textbox', { name: 'Mínimo' }),
      max: region.getByRole('textbox', { name: 'Máximo' }),
      value: region.getByRole('textbox', { name: 'Valor' }),
    };
  };
  return { user, input: card('Rango de entrada'), output: card('Rango de salida') };
}

describe('CalculatorPage', () => {
  it('starts on 4-20 mA to pressure in kPa with empty values', () => {
    const { input, output } = setup();
    expect(screen.getByRole('heading', { level: 1, name: 'Calculadora TXI' })).toBeInTheDocument();
    expect(input.type).toHaveDisplayValue('4-20mA');
    expect(input.min).toHaveValue('4');
    expect(input.max).toHaveValue('20');
    expect(input.value).toHaveAccessibleDescription('mA');
    expect(output.type).toHaveDisplayValue('Presión (kPa)');
    expect(output.min).toHaveValue('0');
    expect(output.max).toHaveValue('100');
    expect(output.value).toHaveAccessibleDescription('kPa');
    expect(input.value).toHaveValue('');
    expect(output.value).toHaveValue('');
  });

  it('computes the output value from the input value', async () => {
    const { user, input, output } = setup();
    await user.type(input.value, '12');
    expect(output.value).toHaveValue('50.00');
    expect(screen.getByRole('status')).toHaveTextContent('Resultado: 12 mA = 50.00 kPa');
  });

  it('computes the input value from the output value', async () => {
    const { user, input, output } = setup();
    await user.type(output.value, '75');
    expect(input.value).toHaveValue('16.00');
    expect(output.value).toHaveValue('75');
  });

  it('recomputes from the last edited side when a bound changes', async () => {
    const { user, input, output } = setup();
    await user.type(output.value, '75');
    await user.clear(output.max);
    await user.type(output.max, '200');
    expect(input.value).toHaveValue('10.00');
    expect(output.value).toHaveValue('75');
  });

  it('fills the °F range and clears both values when that magnitude is chosen', async () => {
    const { user, input, output } = setup();
    await user.type(input.value, '12');
    await user.selectOptions(output.type, 'Temperatura (°F)');
    expect(output.min).toHaveValue('32');
    expect(output.max).toHaveValue('212');
    expect(output.value).toHaveAccessibleDescription('°F');
    expect(input.value).toHaveValue('');
    expect(output.value).toHaveValue('');
  });

  it('fills the 0-10 V range when that signal is chosen', async () => {
    const { user, input, output } = setup();
    await user.selectOptions(input.type, '0-10V');
    expect(input.min).toHaveValue('0');
    expect(input.max).toHaveValue('10');
    expect(input.value).toHaveAccessibleDescription('V');
    await user.type(input.value, '2.5');
    expect(output.value).toHaveValue('25.00');
  });

  it('computes nothing while a bound is not a number', async () => {
    const { user, input, output } = setup();
    await user.clear(input.max);
    await user.type(input.value, '12');
    expect(output.value).toHaveValue('');
    expect(input.max).toBeInvalid();
    expect(screen.getByRole('status')).toHaveTextContent('Completa el mínimo y el máximo de ambos rangos con números.');
  });

  it('accepts a comma as the decimal separator', async () => {
    const { user, input, output } = setup();
    await user.type(input.value, '12,5');
    expect(output.value).toHaveValue('53.13');
  });

  it('says why nothing is computed when the value is not a number', async () => {
    const { user, input, output } = setup();
    await user.type(input.value, '12abc');
    expect(output.value).toHaveValue('');
    expect(input.value).toBeInvalid();
    expect(screen.getByRole('status')).toHaveTextContent('El valor debe ser un número, por ejemplo 12,5.');
  });

  it('says nothing more for a value inside normal ranges', async () => {
    const { user, input } = setup();
    await user.type(input.value, '12');
    expect(screen.queryByRole('list', { name: 'Avisos del cálculo' })).not.toBeInTheDocument();
  });

  it('keeps computing a value outside its range and says the result is extrapolated', async () => {
    const { user, input, output } = setup();
    await user.type(input.value, '24');
    expect(output.value).toHaveValue('125.00');
    const status = screen.getByRole('status');
    expect(status).toHaveTextContent('Resultado: 24 mA = 125.00 kPa');
    expect(within(status).getByRole('list', { name: 'Avisos del cálculo' })).toHaveTextContent(
      'Fuera de rango: 24 mA no está entre 4 y 20 mA (rango de entrada), así que el resultado se extrapola fuera del rango de salida.',
    );
  });

  it('says which range is reversed and that the value lies outside it, computing all the same', async () => {
    const { user, input, output } = setup();
    await user.clear(input.max);
    await user.type(input.max, '2');
    await user.type(input.value, '12');
    expect(output.value).toHaveValue('-400.00');
    const notes = within(screen.getByRole('list', { name: 'Avisos del cálculo' })).getAllByRole('listitem');
    expect(notes.map((note) => note.textContent)).toEqual([
      'Fuera de rango: 12 mA no está entre 4 y 2 mA (rango de entrada), así que el resultado se extrapola fuera del rango de salida.',
      'Rango de entrada invertido: el mínimo (4 mA) es mayor que el máximo (2 mA), como en un transmisor de acción inversa.',
    ]);
  });

  it('names the output range when it is the reversed one, whichever side was typed', async () => {
    const { user, input, output } = setup();
    await user.clear(output.min);
    await user.type(output.min, '100');
    await user.clear(output.max);
    await user.type(output.max, '0');
    await user.type(output.value, '25');
    expect(input.value).toHaveValue('16.00');
    const notes = within(screen.getByRole('list', { name: 'Avisos del cálculo' })).getAllByRole('listitem');
    expect(notes.map((note) => note.textContent)).toEqual([
      'Rango de salida invertido: el mínimo (100 kPa) es mayor que el máximo (0 kPa), como en un transmisor de acción inversa.',
    ]);
  });

  it('works by keyboard alone', async () => {
    const { user, input, output } = setup();
    await user.tab();
    expect(input.type).toHaveFocus();
    await user.tab();
    await user.tab();
    await user.tab();
    expect(input.value).toHaveFocus();
    await user.keyboard('8');
    expect(output.value).toHaveValue('25.00');
  });
});
