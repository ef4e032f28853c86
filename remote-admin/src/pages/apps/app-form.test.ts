import type { App } from '@portal/shared';
import { appToForm, emptyAppForm, formToInput, validateAppForm } from './app-form';

const app: App = {
  id: 3, nombre: 'TX30', descripcion: 'Software', longDescription: '', iconUrl: null, webUrl: 'https://tx30.example.com',
  iosUrl: null, androidUrl: null, isEnabledWeb: true, isEnabledMovil: false, tags: [{ descripcion: 'Transmisores' }, { descripcion: 'Calibración' }],
};

describe('the app form', () => {
  it('requires a name', () => {
    expect(validateAppForm({ ...emptyAppForm, nombre: '  ' })).toBe('El nombre es requerido');
    expect(validateAppForm({ ...emptyAppForm, nombre: 'X' })).toBeNull();
  });

  it('sends trimmed texts, empty links as null and comma-separated tags', () => {
    expect(formToInput({ ...appToForm(app), nombre: ' TX30 Pro ', tags: 'Transmisores, , Nube ' })).toEqual({
      nombre: 'TX30 Pro', descripcion: 'Software', longDescription: '', iconUrl: null, webUrl: 'https://tx30.example.com',
      iosUrl: null, androidUrl: null, isEnabledWeb: true, isEnabledMovil: false,
      tags: [{ descripcion: 'Transmisores' }, { descripcion: 'Nube' }],
    });
  });

  it('fills the form from an app', () => {
    expect(appToForm(app).tags).toBe('Transmisores, Calibración');
  });
});
