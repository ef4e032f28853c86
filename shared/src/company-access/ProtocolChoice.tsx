import { useId } from 'react';
import styled from 'styled-components';
import { theme } from '../ui/theme';
import { PROTOCOL_NAMES, type SsoProtocol } from './SsoConnectionForm';
import { TEXT_ACCESS } from './texts';

/** A choice of a few options as radios in a row (wrapping on a phone), each at least 44 px high. */
export const Choices = styled.fieldset`
  min-width: 0;
  margin: 0 0 12px;
  padding: 8px 14px 12px;
  border: 1px solid ${theme.color.border};
  border-radius: ${theme.radius};
  legend { padding: 0 6px; font-weight: 600; }
  div { display: flex; flex-wrap: wrap; gap: 0 20px; }
  label { display: flex; align-items: center; gap: 10px; min-height: 44px; }
  input { width: 20px; height: 20px; margin: 0; }
`;

const KINDS: readonly SsoProtocol[] = ['oidc', 'saml'];

/**
 * 'Protocolo': OpenID Connect or SAML 2.0, for the company's own sign-in. The radios' group name is this choice's own,
 * so that no other radio of the page joins the group and takes the mark away from the protocol chosen.
 */
export function ProtocolChoice({ value, onChange }: { value: SsoProtocol; onChange(kind: SsoProtocol): void }) {
  const name = useId();
  return (
    <Choices>
      <legend>{TEXT_ACCESS.protocol}</legend>
      <div>
        {KINDS.map((option) => (
          <label key={option}>
            <input
              type="radio"
              name={name}
              value={option}
              checked={value === option}
              onChange={() => onChange(option)}
            />
            {PROTOCOL_NAMES[option]}
          </label>
        ))}
      </div>
    </Choices>
  );
}
