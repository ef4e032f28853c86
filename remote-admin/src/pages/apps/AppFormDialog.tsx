import { CheckField, FormDialog, FormText } from '../../components/FormDialog';
import { TEXT_ADMIN } from '../../texts';
import { type AppForm, validateAppForm } from './app-form';
import { TEXT_APPS } from './texts';

/** The form's labels for the API's field names, so that a refusal names what the person sees. */
const APP_FIELD_LABELS = {
  nombre: TEXT_ADMIN.name,
  descripcion: TEXT_APPS.description,
  longDescription: TEXT_APPS.longDescription,
  iconUrl: TEXT_APPS.iconUrl,
  webUrl: TEXT_APPS.webUrl,
  iosUrl: TEXT_APPS.iosUrl,
  androidUrl: TEXT_APPS.androidUrl,
  tags: 'Etiquetas',
} as const;

const TEXT_FIELDS = [
  { key: 'nombre', label: TEXT_ADMIN.name, wide: true },
  { key: 'descripcion', label: TEXT_APPS.description, wide: true },
  { key: 'longDescription', label: TEXT_APPS.longDescription, wide: true },
  { key: 'iconUrl', label: TEXT_APPS.iconUrl },
  { key: 'webUrl', label: TEXT_APPS.webUrl },
  { key: 'iosUrl', label: TEXT_APPS.iosUrl },
  { key: 'androidUrl', label: TEXT_APPS.androidUrl },
] as const;

export interface AppFormDialogProps {
  title: string;
  initial: AppForm;
  /** Sends the form; a failure stays in the dialog with the server's words. */
  onSubmit(form: AppForm): Promise<void>;
  onClose(): void;
}

/** 'Nueva aplicación' and 'Editar …' of the apps page: the app's texts, links, platforms and tags. */
export function AppFormDialog(props: AppFormDialogProps) {
  return (
    <FormDialog {...props} validate={validateAppForm} labels={APP_FIELD_LABELS}>
      {({ bind }) => (
        <>
          {TEXT_FIELDS.map((field) => (
            <FormText key={field.key} label={field.label} wide={'wide' in field} {...bind(field.key)} />
          ))}
          <CheckField label={TEXT_APPS.enabledWeb} {...bind('isEnabledWeb')} />
          <CheckField label={TEXT_APPS.enabledMobile} {...bind('isEnabledMovil')} />
          <FormText label={TEXT_APPS.tags} wide {...bind('tags')} />
        </>
      )}
    </FormDialog>
  );
}
