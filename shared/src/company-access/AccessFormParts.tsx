import styled from 'styled-components';
import { TextField } from '../ui/TextField';
import { theme } from '../ui/theme';
import { TEXT_ACCESS } from './texts';

const T = TEXT_ACCESS;

/** The connection forms of 'Acceso de la empresa' (OpenID Connect and SAML): one column, the fields' own width. */
export const AccessForm = styled.form`
  display: grid;
  grid-template-columns: minmax(0, 1fr);
  gap: 16px;
  max-width: 640px;
  margin-top: 8px;
  h3 { margin: 0; }
  /* A fieldset is as wide as its content by default: a long domain would widen the page on a phone. */
  fieldset { min-width: 0; margin: 0; padding: 8px 14px 12px; border: 1px solid ${theme.color.border}; border-radius: ${theme.radius}; }
  legend { padding: 0 6px; font-weight: 600; }
  label.check { display: flex; align-items: center; gap: 10px; min-height: 44px; overflow-wrap: anywhere; }
  label.check input { width: 20px; height: 20px; margin: 0; flex: none; }
  .note { margin: 0; color: ${theme.color.muted}; font-size: 0.9rem; }
  button[type='submit'] { justify-self: start; }
`;

/** 'a.pe, b.pe' typed by a platform administrator: each domain once, lowercase. */
export function typedDomains(text: string): string[] {
  return text
    .split(/[\s,;]+/)
    .map((domain) => domain.trim().toLowerCase())
    .filter(Boolean);
}

/**
 * The domains that enter by the company's provider: its proved ones (and the connection's own, even when no longer
 * proved: the API then says why) to tick, and, for a platform administrator, others to type (its call proves them).
 */
export function DomainsChoice({
  offered,
  chosen,
  onChosen,
  platform,
  others,
  onOthers,
  busy,
}: {
  offered: string[];
  chosen: string[];
  onChosen(chosen: string[]): void;
  platform: boolean;
  others: string;
  onOthers(others: string): void;
  busy: boolean;
}) {
  return (
    <fieldset>
      <legend>{T.accessDomains}</legend>
      <p className="note">{T.accessDomainsHint}</p>
      {offered.length === 0 && !platform && <p className="note">{T.noProvedDomains}</p>}
      {offered.map((domain) => (
        <label className="check" key={domain}>
          <input
            type="checkbox"
            checked={chosen.includes(domain)}
            disabled={busy}
            onChange={(event) =>
              onChosen(event.target.checked ? [...chosen, domain] : chosen.filter((other) => other !== domain))
            }
          />
          {domain}
        </label>
      ))}
      {platform && (
        <TextField
          label={T.otherDomains}
          hint={T.otherDomainsHint}
          value={others}
          disabled={busy}
          autoComplete="off"
          spellCheck={false}
          onChange={(event) => onOthers(event.target.value)}
        />
      )}
    </fieldset>
  );
}

/** 'Permitir también la contraseña del portal' for the addresses of those domains. */
export function AllowPassword({
  value,
  onChange,
  busy,
}: {
  value: boolean;
  onChange(value: boolean): void;
  busy: boolean;
}) {
  return (
    <label className="check">
      <input type="checkbox" checked={value} disabled={busy} onChange={(event) => onChange(event.target.checked)} />
      {T.allowPassword}
    </label>
  );
}

/** An address typed into the form (a provider's issuer, its metadata URL): no autocompletion, no spelling marks. */
export function AddressField({
  label,
  hint,
  value,
  onChange,
  busy,
}: {
  label: string;
  hint: string;
  value: string;
  onChange(value: string): void;
  busy: boolean;
}) {
  return (
    <TextField
      label={label}
      hint={hint}
      value={value}
      disabled={busy}
      type="url"
      inputMode="url"
      autoComplete="off"
      spellCheck={false}
      onChange={(event) => onChange(event.target.value)}
    />
  );
}
