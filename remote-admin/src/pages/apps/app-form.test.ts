import type { App } from '@portal/shared';
import { appToForm, emptyAppForm, formToInput, validateAppForm } from './app-form';

const app: App = {
  id: 3,
  nombre: 'TX30',
  descripcion: 'Software',
  longDescription: '',
  iconUrl: null,
  webUrl: 'https://tx30.example.com',
  iosUrl: null,
  androidUrl: null,
  isEnabledWeb: true,
  isEnabledMovil: false,
  tags: [{ descripcion: 'Transmisores' }, { descripcion: 'Calibración' }],
};

describe('the app form', () => {
  it('requires a name', () => {
    expect(validateAppForm({ ...emptyAppForm, nombre: '  ' })).toBe('El nombre es requerido');
    expect(validateAppForm({ ...emptyAppForm, nombre: 'X' })).toBeNull();
  });

  it('refuses links a browser would run or that leave for any host, naming the field as the form labels it', () => {
    const named = (form: Partial<typeof emptyAppForm>) => validateAppForm({ ...emptyAppForm, nombre: 'X', ...form });
    expect(named({ webUrl: '//evil.example.com' })).toMatch(/^La URL web debe empezar por https:\/\//);
    expect(named({ webUrl: 'http://intranet.example.com' })).toMatch(/^La URL web/);
    expect(named({ iosUrl: 'javascript://%0aalert(1)' })).toMatch(
      /^La URL iOS debe ser una dirección https:\/\/ o el enlace de la app/,
    );
    expect(named({ androidUrl: 'data://x' })).toMatch(/^La URL Android/);
    expect(
      named({ webUrl: ' /calculadora-txi ', iosUrl: 'betopro://auth', androidUrl: 'https://play.google.com/x' }),
    ).toBeNull();
  });

  it('sends trimmed texts, empty links as null and comma-separated tags', () => {
    expect(formToInput({ ...appToForm(app), nombre: ' TX30 Pro ', tags: 'Transmisores, , Nube ' })).toEqual({
      nombre: 'TX30 Pro',
      descripcion: 'Software',
      longDescription: '',
      iconUrl: null,
      webUrl: 'https://tx30.example.com',
      iosUrl: null,
      androidUrl: null,
      isEnabledWeb: true,
      isEnabledMovil: false,
      tags: [{ descripcion: 'Transmisores' }, { descripcion: 'Nube' }],
    });
  });

  it('fills the form from an app', () => {
    expect(appToForm(app).tags).toBe('Transmisores, Calibración');
  });
});
