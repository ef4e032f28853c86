import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderAt } from '../../testing/setup';
import { emptyAppForm, type AppForm } from './app-form';
import { AppFormDialog } from './AppFormDialog';
import { TEXT_APPS } from './texts';

function open(onSubmit: (form: AppForm) => Promise<void>, initial: AppForm = emptyAppForm) {
  renderAt(
    '/admin/aplicaciones',
    <AppFormDialog title="Nueva aplicación" initial={initial} onSubmit={onSubmit} onClose={() => undefined} />,
  );
  return screen.getByRole('dialog', { name: 'Nueva aplicación' });
}

describe('the app form', () => {
  it('refuses an app without a name and sends nothing', async () => {
    const onSubmit = jest.fn(async () => undefined);
    const dialog = open(onSubmit);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Guardar' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent('El nombre es requerido');
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('sends what was typed and ticked, and stays busy while the page closes it', async () => {
    const onSubmit = jest.fn(async () => undefined);
    const dialog = open(onSubmit);
    await userEvent.type(within(dialog).getByLabelText('Nombre'), 'Beto');
    await userEvent.click(within(dialog).getByLabelText('Habilitada en web'));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Guardar' }));
    expect(onSubmit).toHaveBeenCalledWith({ ...emptyAppForm, nombre: 'Beto', isEnabledWeb: true });
    expect(within(dialog).getByRole('button', { name: 'Guardando...' })).toBeDisabled();
  });

  it("names the field the person sees in the server's refusal, and can be sent again", async () => {
    const onSubmit = jest
      .fn<Promise<void>, [AppForm]>()
      .mockRejectedValueOnce(new Error("Datos inválidos: 'webUrl' no es válido"))
      .mockResolvedValueOnce(undefined);
    const dialog = open(onSubmit, { ...emptyAppForm, nombre: 'Beto' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Guardar' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      `Datos inválidos: '${TEXT_APPS.webUrl}' no es válido`,
    );
    await userEvent.click(within(dialog).getByRole('button', { name: 'Guardar' }));
    expect(onSubmit).toHaveBeenCalledTimes(2);
  });
});
