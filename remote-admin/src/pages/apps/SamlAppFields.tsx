import type { SamlApp, SamlAppChange as SamlAppInput } from '@portal/shared';
import type { App } from '@portal/shared';
import { MetadataField } from '@portal/shared';
import { CheckField, type FormDialogFields, FormText } from '../../components/FormDialog';
import { SelectField } from '../../components/SelectField';
import { TEXT_ADMIN } from '../../texts';
import { NO_APP } from './oidc-client-form';
import { TEXT_APPS } from './texts';

/** The form's labels for the API's field names, so that a refusal names what the person sees. */
export const SAML_APP_FIELD_LABELS = {
  nombre: TEXT_ADMIN.name,
  metadata: TEXT_APPS.samlMetadata,
  appId: TEXT_APPS.portalApp,
  primeraParte: TEXT_APPS.firstParty,
} as const;

/** The SAML app form's fields as the inputs hold them. */
export interface SamlAppForm {
  nombre: string;
  metadata: string;
  appId: number;
  primeraParte: boolean;
}

export function samlAppToForm(app: SamlApp | null): SamlAppForm {
  // The saved metadata is not sent back: an edit starts empty, and empty keeps it.
  return {
    nombre: app?.nombre ?? '',
    metadata: '',
    appId: app?.appId ?? NO_APP,
    primeraParte: app?.primeraParte ?? false,
  };
}

/** The body of the create and the replace: the name trimmed, the metadata when given, the app when chosen, first party. */
export function samlAppInput(form: SamlAppForm): SamlAppInput {
  const metadata = form.metadata.trim();
  return {
    nombre: form.nombre.trim(),
    ...(metadata ? { metadata } : {}),
    ...(form.appId === NO_APP ? {} : { appId: form.appId }),
    primeraParte: form.primeraParte,
  };
}

/** The form's own refusal: a name, and the metadata the first time (an edit left empty keeps it). */
export function validateSamlAppForm(form: SamlAppForm, editing: boolean): string | null {
  return !form.nombre.trim()
    ? TEXT_APPS.nameRequired
    : !editing && !form.metadata.trim()
      ? TEXT_APPS.samlMetadataRequired
      : null;
}

export interface SamlAppFieldsProps {
  fields: FormDialogFields<SamlAppForm>;
  /** The portal's apps a SAML app may be tied to. */
  apps: readonly Pick<App, 'id' | 'nombre'>[];
  /** An existing app: its metadata may be left empty to keep it. */
  editing: boolean;
}

/** The SAML part of 'Conectar aplicación' and 'Editar aplicación SAML …': its name, SP metadata and the portal's app. */
export function SamlAppFields({ fields: { bind }, apps, editing }: SamlAppFieldsProps) {
  const appOptions = [
    { value: NO_APP, label: TEXT_APPS.noLinkedApp },
    ...apps.map((app) => ({ value: app.id, label: app.nombre })),
  ];
  return (
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
      <div>
        <CheckField label={TEXT_APPS.firstParty} {...bind('primeraParte')} />
        <p className="note">{TEXT_APPS.firstPartyHint}</p>
      </div>
    </>
  );
}
