import { type ChangeEvent, useId, useState } from 'react';
import styled from 'styled-components';
import { theme } from '../ui/theme';
import { TEXT_ACCESS } from './texts';
import { TextAreaField } from './TextAreaField';

/** The API's own bound on a metadata document: a bigger file is refused here, before it fills the field. */
export const MAX_METADATA_BYTES = 1024 * 1024;

const Load = styled.div`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: 8px 12px;
  margin-top: 8px;
  /* The file input is read by the keyboard and screen readers; its label is what the eye sees, as a button. */
  input { position: absolute; width: 1px; height: 1px; opacity: 0; overflow: hidden; }
  label {
    position: relative;
    display: inline-flex;
    align-items: center;
    min-height: 44px;
    padding: 0 18px;
    border: 1px solid ${theme.color.primary};
    border-radius: ${theme.radius};
    background: ${theme.color.surface};
    color: ${theme.color.primary};
    font-weight: 600;
    cursor: pointer;
  }
  label:focus-within { outline: 3px solid ${theme.color.primary}; outline-offset: 2px; }
  label[aria-disabled='true'] { opacity: 0.55; cursor: not-allowed; }
  span { color: ${theme.color.muted}; font-size: 0.875rem; overflow-wrap: anywhere; }
`;

function readText(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result ?? ''));
    reader.onerror = () => reject(reader.error);
    reader.readAsText(file);
  });
}

/**
 * A SAML metadata document: pasted in the text area, or loaded from the .xml file the other side exported (AD FS,
 * Entra ID, a partner app), which then fills the text area to be read before saving.
 */
export function MetadataField({
  label,
  hint,
  value,
  onChange,
  disabled = false,
}: {
  label: string;
  hint?: string;
  value: string;
  onChange(value: string): void;
  disabled?: boolean;
}) {
  const id = useId();
  const [loaded, setLoaded] = useState<string | null>(null);

  const load = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    // The same file chosen again after an edit is read again.
    event.target.value = '';
    if (!file) return;
    if (file.size > MAX_METADATA_BYTES) {
      setLoaded(TEXT_ACCESS.metadataTooLarge);
      return;
    }
    try {
      onChange(await readText(file));
      setLoaded(TEXT_ACCESS.metadataLoaded(file.name));
    } catch {
      setLoaded(TEXT_ACCESS.metadataUnreadable);
    }
  };

  return (
    <div className="wide">
      <TextAreaField label={label} hint={hint} value={value} onChange={onChange} disabled={disabled} rows={6} />
      <Load>
        <label htmlFor={`${id}-file`} aria-disabled={disabled}>
          {TEXT_ACCESS.loadMetadataFile}
          <input
            id={`${id}-file`}
            type="file"
            accept=".xml,application/xml,text/xml,application/samlmetadata+xml"
            disabled={disabled}
            onChange={(event) => void load(event)}
          />
        </label>
        <span role="status">{loaded ?? ''}</span>
      </Load>
    </div>
  );
}
