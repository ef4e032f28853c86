import { Alert, TextAreaField, type App } from '@portal/shared';
import { CheckField, type FormDialogFields, FormText } from '../../components/FormDialog';
import { SelectField } from '../../components/SelectField';
import { TEXT_ADMIN } from '../../texts';
import {
  asksForRedirectUris,
  type ClientType,
  NO_APP,
  OIDC_SCOPES,
  type OidcClientForm,
  SUBJECT_KINDS,
  withScope,
} from './oidc-client-form';
import { TEXT_APPS } from './texts';

/** The form's labels for the API's field names, so that a refusal names what the person sees. */
export const OIDC_CLIENT_FIELD_LABELS = {
  nombre: TEXT_ADMIN.name,
  redirectUris: TEXT_APPS.redirectUris,
  postLogoutRedirectUris: TEXT_APPS.postLogoutRedirectUris,
  backchannelLogoutUri: TEXT_APPS.backchannelLogoutUri,
  initiateLoginUri: TEXT_APPS.initiateLoginUri,
  publico: TEXT_APPS.clientType,
  primeraParte: TEXT_APPS.firstParty,
  appId: TEXT_APPS.linkedApp,
  scopes: TEXT_APPS.scopes,
  sujeto: TEXT_APPS.subjectKind,
  dispositivos: TEXT_APPS.deviceFlow,
} as const;

const TYPE_OPTIONS: { value: ClientType; label: string }[] = [
  { value: 'confidencial', label: TEXT_APPS.confidential },
  { value: 'publico', label: TEXT_APPS.public },
];

/** The address fields: two lists typed one a line, then two single addresses. */
const LIST_FIELDS = [
  { key: 'redirectUris', label: TEXT_APPS.redirectUris, rows: 3 },
  { key: 'postLogoutRedirectUris', label: TEXT_APPS.postLogoutRedirectUris, rows: 2 },
] as const;
const ADDRESS_FIELDS = [
  { key: 'backchannelLogoutUri', label: TEXT_APPS.backchannelLogoutUri, hint: undefined },
  { key: 'initiateLoginUri', label: TEXT_APPS.initiateLoginUri, hint: TEXT_APPS.initiateLoginHint },
] as const;

export interface OidcClientFieldsProps {
  fields: FormDialogFields<OidcClientForm>;
  /** The catalogue's apps a client may be tied to. */
  apps: readonly Pick<App, 'id' | 'nombre'>[];
  /**
   * The kind of subject of an existing client, whose change the person is warned about; null for a new client. Its
   * type stays too (a public client has no secret to keep, a confidential one needs one).
   */
  savedSubject: OidcClientForm['sujeto'] | null;
}

/**
 * The OpenID Connect part of 'Conectar aplicación' and 'Editar cliente …': a client's addresses, type, device
 * sign-in, app, permissions and kind of subject.
 */
export function OidcClientFields({ fields, apps, savedSubject }: OidcClientFieldsProps) {
  const { form, set, saving, bind } = fields;
  const editing = savedSubject !== null;
  // A permission this panel does not know yet is said, and kept as it is.
  const unlisted = form.scopes.filter((scope) => !OIDC_SCOPES.includes(scope));
  const appOptions = [
    { value: NO_APP, label: TEXT_APPS.noLinkedApp },
    ...apps.map((app) => ({ value: app.id, label: app.nombre })),
  ];
  return (
    <>
      <FormText label={TEXT_ADMIN.name} wide {...bind('nombre')} />
      {LIST_FIELDS.map((field) => (
        <TextAreaField
          key={field.key}
          label={field.label}
          hint={
            field.key === 'redirectUris' && !asksForRedirectUris(form)
              ? TEXT_APPS.redirectUrisOptional
              : TEXT_APPS.onePerLine
          }
          rows={field.rows}
          {...bind(field.key)}
        />
      ))}
      {ADDRESS_FIELDS.map((field) => (
        <FormText key={field.key} label={field.label} hint={field.hint} wide {...bind(field.key)} />
      ))}
      <div>
        <SelectField
          id="oidc-client-type"
          label={TEXT_APPS.clientType}
          options={TYPE_OPTIONS}
          {...bind('tipo')}
          disabled={saving || editing}
        />
        {editing && <p className="note">{TEXT_APPS.typeFixed}</p>}
      </div>
      <div>
        <CheckField label={TEXT_APPS.firstParty} {...bind('primeraParte')} />
        <p className="note">{TEXT_APPS.firstPartyHint}</p>
      </div>
      <div className="wide">
        <CheckField label={TEXT_APPS.deviceFlow} describedBy="oidc-client-devices-hint" {...bind('dispositivos')} />
        <p className="note" id="oidc-client-devices-hint">
          {TEXT_APPS.deviceFlowHint}
        </p>
      </div>
      <div className="wide">
        <SelectField
          id="oidc-client-app"
          label={TEXT_APPS.linkedApp}
          options={appOptions}
          {...bind('appId')}
          onChange={(appId) => {
            set('appId', appId);
            // Without an app there is no plan to tell.
            if (appId === NO_APP) set('scopes', withScope(form.scopes, 'plan', false));
          }}
        />
      </div>
      <fieldset className="wide">
        <legend>{TEXT_APPS.scopes}</legend>
        {OIDC_SCOPES.map((scope) => (
          <CheckField
            key={scope}
            label={TEXT_APPS.scopeLabels[scope]}
            value={form.scopes.includes(scope)}
            onChange={(on) => set('scopes', withScope(form.scopes, scope, on))}
            disabled={saving || scope === 'openid' || (scope === 'plan' && form.appId === NO_APP)}
          />
        ))}
        {form.appId === NO_APP && <p className="note">{TEXT_APPS.planNeedsApp}</p>}
        {unlisted.length > 0 && <p className="note">{TEXT_APPS.unlistedScopes(unlisted.join(', '))}</p>}
      </fieldset>
      <fieldset className="wide">
        <legend>{TEXT_APPS.subjectKind}</legend>
        {SUBJECT_KINDS.map((kind) => (
          <div key={kind}>
            <label className="check">
              <input
                type="radio"
                name="oidc-client-subject"
                value={kind}
                checked={form.sujeto === kind}
                disabled={saving}
                aria-describedby={`oidc-client-subject-${kind}`}
                onChange={() => set('sujeto', kind)}
              />
              {TEXT_APPS.subjectKinds[kind]}
            </label>
            <p className="note" id={`oidc-client-subject-${kind}`}>
              {TEXT_APPS.subjectKindHints[kind]}
            </p>
          </div>
        ))}
        {/* The app sees new identifiers from the next sign-in: said before saving, where the choice is made. */}
        {editing && form.sujeto !== savedSubject && <Alert tone="info">{TEXT_APPS.subjectKindChanged}</Alert>}
      </fieldset>
    </>
  );
}
