import type { SamlApp, SamlAppChange as SamlAppInput } from '@portal/shared';
import type { App } from '@portal/shared';
import { MetadataField } from '@portal/shared';
import { FormDialog, FormText } from '../../components/FormDialog';
import { SelectField } from '../../components/SelectField';
import { TEXT_ADMIN } from '../../texts';
import { NO_APP } from './oidc-client-form';
import { TEXT_APPS } from './texts';

/** The form's labels for the API's field names, so that a refusal names what the person sees. */
const SAML_APP_FIELD_LABELS = {
  nombre: TEXT_ADMIN.name,
  metadata: TEXT_APPS.samlMetadata,
  appId: TEXT_APPS.portalApp,
} as const;

/** The SAML app form's fields as the inputs hold them. */
export interface SamlAppForm {
  nombre: string;
  metadata: string;
  appId: number;
}

export function samlAppToForm(app: SamlApp | null): SamlAppForm {
  // The saved metadata is not sent back: an edit starts empty, and empty keeps it.
  return { nombre: app?.nombre ?? '', metadata: '', appId: app?.appId ?? NO_APP };
}

/** The body of the create and the replace: the name trimmed, the metadata when given, the app when chosen. */
export function samlAppInput(form: SamlAppForm): SamlAppInput {
  const metadata = form.metadata.trim();
  return {
    nombre: form.nombre.trim(),
    ...(metadata ? { metadata } : {}),
    ...(form.appId === NO_APP ? {} : { appId: form.appId }),
  };
}

export interface SamlAppDialogProps {
  title: string;
  initial: SamlAppForm;
  /** The portal's apps a SAML app may be tied to. */
  apps: readonly Pick<App, 'id' | 'nombre'>[];
  /** An existing app: its metadata may be left empty to keep it. */
  editing: boolean;
  onSubmit(form: SamlAppForm): Promise<void>;
  onClose(): void;
}

/** 'Nueva aplicación SAML' and 'Editar aplicación SAML …': its name, its SP metadata and the portal's app. */
export function SamlAppDialog({ apps, editing, ...dialog }: SamlAppDialogProps) {
  const appOptions = [
    { value: NO_APP, label: TEXT_APPS.noLinkedApp },
    ...apps.map((app) => ({ value: app.id, label: app.nombre })),
  ];
  const validate = (form: SamlAppForm) =>
    !form.nombre.trim()
      ? TEXT_APPS.nameRequired
      : !editing && !form.metadata.trim()
        ? TEXT_APPS.samlMetadataRequired
        : null;
  return (
    <FormDialog {...dialog} validate={validate} labels={SAML_APP_FIELD_LABELS}>
      {({ bind }) => (
        <>
          <FormText label={TEXT_ADMIN.name} wide {...bind('nombre')} />
          <MetadataField
            label={TEXT_APPS.samlMetadata}
            hint={editing ? TEXT_APPS.samlMetadataKept : TEXT_APPS.samlMetadataHint}
            {...bind('metadata')}
          />
          <div className="wide">
            <SelectField id="saml-app-app" label={TEXT_APPS.portalApp} options={appOptions} {...bind('appId')} />
            <p className="note">{TEXT_APPS.portalAppHint}</p>
          </div>
        </>
      )}
    </FormDialog>
  );
}
