import { type FormEvent, useId, useState } from 'react';
import { errorMessage } from '../api/client';
import { useSubmit } from '../forms/useSubmit';
import type { CompanyProvider, CompanyProviderInput, CompanySamlProvider } from '../types/entities';
import { Alert } from '../ui/Alert';
import { Button } from '../ui/Button';
import { AccessForm, AllowPassword, DomainsChoice, typedDomains } from './AccessFormParts';
import { OIDC_PART, type OidcFieldValues } from './OidcSsoPart';
import { SAML_PART, type SamlFieldValues } from './SamlSsoPart';
import { TEXT_ACCESS } from './texts';

const T = TEXT_ACCESS;

/** The protocols a company's own sign-in speaks. */
export type SsoProtocol = 'oidc' | 'saml';

/** The company's connection as the API answers it; an OpenID Connect one from before SAML has no `tipo`. */
export type SsoConnection = CompanyProvider | CompanySamlProvider;

export const PROTOCOL_NAMES: Record<SsoProtocol, string> = { oidc: T.protocolOidc, saml: T.protocolSaml };

const isSaml = (connection: SsoConnection): connection is CompanySamlProvider => connection.tipo === 'saml';

/** The protocol of a connection: an answer without `tipo` is OpenID Connect. */
export const kindOf = (connection: SsoConnection): SsoProtocol => (isSaml(connection) ? 'saml' : 'oidc');

/** The API's field names of the common part, as the form labels them. */
const LABELS = { dominios: T.accessDomains, permitirContrasena: T.allowPassword };

/**
 * The domains ticked: the person's own choice once made; until then the connection's, or, before anything is
 * connected, every proved one (usually the company's only one, and one proved later on the setup page too): a
 * connection needs at least one, which the person would otherwise have to find and tick first.
 */
export function tickedDomains(
  choice: readonly string[] | null,
  current: SsoConnection | null,
  proved: readonly string[],
): string[] {
  return [...(choice ?? current?.dominios ?? proved)];
}

export interface SsoConnectionFormProps {
  /** The protocol chosen on the page; switching it keeps the domains and the password as they are. */
  kind: SsoProtocol;
  /** The company's connection, of either protocol; null before anything is connected. */
  current: SsoConnection | null;
  proved: string[];
  platform: boolean;
  save(input: CompanyProviderInput): Promise<unknown>;
  onSaved(): void;
}

/**
 * Connects or changes the company's identity provider (docs/decisions/0123-connected-apps-and-one-sign-in-form.md):
 * the protocol's own small part (OidcSsoPart, SamlSsoPart), then, once for both, the domains (the company's
 * proved ones to tick, and for a platform administrator others to type: its call proves them), the password, the
 * refusal and 'Guardar'. Saving one protocol replaces a connection of the other, and the form says so first. The admin
 * panel's 'Acceso de la empresa' and the company's setup page both show it, each with its own `save`.
 */
export function SsoConnectionForm({ kind, current, proved, platform, save, onSaved }: SsoConnectionFormProps) {
  const titleId = useId();
  const currentOidc = current && !isSaml(current) ? current : null;
  const currentSaml = current && isSaml(current) ? current : null;
  const [oidc, setOidc] = useState<OidcFieldValues>(() => OIDC_PART.initial(currentOidc));
  const [saml, setSaml] = useState<SamlFieldValues>(() => SAML_PART.initial(currentSaml));
  const [choice, setChoice] = useState<string[] | null>(null);
  const chosen = tickedDomains(choice, current, proved);
  const [others, setOthers] = useState('');
  const [allowPassword, setAllowPassword] = useState(current?.permitirContrasena ?? true);
  const { busy, message, submit } = useSubmit();
  // The connection's own domains stay offered even when no longer among the proved ones (the API then says why).
  const offered = [...new Set([...proved, ...(current?.dominios ?? [])])];
  const replaces = current && kindOf(current) !== kind ? PROTOCOL_NAMES[kindOf(current)] : null;
  const part = kind === 'oidc' ? OIDC_PART.body(oidc, currentOidc) : SAML_PART.body(saml, currentSaml);
  const labels = { ...LABELS, ...(kind === 'oidc' ? OIDC_PART.labels : SAML_PART.labels) };

  const send = (event: FormEvent) => {
    event.preventDefault();
    const dominios = [...new Set([...chosen, ...(platform ? typedDomains(others) : [])])];
    // The protocol's fields and the common ones make one body of that protocol (TypeScript does not follow the union).
    const input = { ...part.fields, dominios, permitirContrasena: allowPassword } as CompanyProviderInput;
    void submit({
      problem: part.problem ?? (dominios.length === 0 ? T.domainsRequired : null),
      afterSuccess: 'ready',
      call: () => save(input),
      success: () => onSaved(),
      failure: (caught) => errorMessage(caught, T.saveProviderFailed, labels),
    });
  };

  return (
    <AccessForm onSubmit={send} noValidate aria-labelledby={titleId}>
      <h3 id={titleId}>{T.providerForm}</h3>
      {message && <Alert tone={message.tone}>{message.text}</Alert>}
      {replaces && <p className="note">{T.replacesOther(replaces)}</p>}
      {kind === 'oidc' ? (
        <OIDC_PART.Fields values={oidc} onChange={setOidc} current={currentOidc} busy={busy} />
      ) : (
        <SAML_PART.Fields values={saml} onChange={setSaml} current={currentSaml} busy={busy} />
      )}
      <DomainsChoice
        offered={offered}
        chosen={chosen}
        onChosen={setChoice}
        platform={platform}
        others={others}
        onOthers={setOthers}
        busy={busy}
      />
      <AllowPassword value={allowPassword} onChange={setAllowPassword} busy={busy} />
      <Button type="submit" disabled={busy}>
        {busy ? T.saving : T.save}
      </Button>
    </AccessForm>
  );
}
