import { appLinksProblem, type App, type AppInput } from '@portal/shared';
import { TEXT_APPS } from './texts';

/** The app form's fields as the inputs hold them. */
export interface AppForm {
  nombre: string;
  descripcion: string;
  longDescription: string;
  iconUrl: string;
  webUrl: string;
  iosUrl: string;
  androidUrl: string;
  isEnabledWeb: boolean;
  isEnabledMovil: boolean;
  tags: string;
}

export const emptyAppForm: AppForm = {
  nombre: '',
  descripcion: '',
  longDescription: '',
  iconUrl: '',
  webUrl: '',
  iosUrl: '',
  androidUrl: '',
  isEnabledWeb: false,
  isEnabledMovil: false,
  tags: '',
};

export function appToForm(app: App): AppForm {
  return {
    nombre: app.nombre,
    descripcion: app.descripcion ?? '',
    longDescription: app.longDescription ?? '',
    iconUrl: app.iconUrl ?? '',
    webUrl: app.webUrl ?? '',
    iosUrl: app.iosUrl ?? '',
    androidUrl: app.androidUrl ?? '',
    isEnabledWeb: app.isEnabledWeb,
    isEnabledMovil: app.isEnabledMovil,
    tags: app.tags.map((tag) => tag.descripcion).join(', '),
  };
}

/**
 * The form's error, or null: the name is required, and the links follow the shared rules the server applies too
 * (docs/decisions/0009-app-links-rule.md: https or a portal path for the web, https or the app's scheme for mobile,
 * never javascript: and such).
 */
export function validateAppForm(form: AppForm): string | null {
  if (!form.nombre.trim()) return TEXT_APPS.nameRequired;
  const link = (value: string) => value.trim() || null;
  return appLinksProblem({ webUrl: link(form.webUrl), iosUrl: link(form.iosUrl), androidUrl: link(form.androidUrl) });
}

/** What the server is sent: trimmed texts, empty links as null, tags split on commas. */
export function formToInput(form: AppForm): AppInput & { nombre: string } {
  const link = (value: string) => value.trim() || null;
  return {
    nombre: form.nombre.trim(),
    descripcion: form.descripcion.trim(),
    longDescription: form.longDescription.trim(),
    iconUrl: link(form.iconUrl),
    webUrl: link(form.webUrl),
    iosUrl: link(form.iosUrl),
    androidUrl: link(form.androidUrl),
    isEnabledWeb: form.isEnabledWeb,
    isEnabledMovil: form.isEnabledMovil,
    tags: form.tags
      .split(',')
      .map((tag) => tag.trim())
      .filter(Boolean)
      .map((descripcion) => ({ descripcion })),
  };
}
