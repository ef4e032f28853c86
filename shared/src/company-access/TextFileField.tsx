import { type ChangeEvent, useId, useState } from 'react';
import styled from 'styled-components';
import { theme } from '../ui/theme';
import { TextAreaField } from './TextAreaField';

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

/** The file a text field also loads from: what its button says, which files it offers, and what it says after. */
export interface TextFile {
  /** The button's words ('Cargar archivo XML'), which also name the file input. */
  label: string;
  /** The input's `accept`. */
  accept: string;
  /** A larger file is refused before it fills the field. */
  maxBytes: number;
  loaded(name: string): string;
  tooLarge: string;
  unreadable: string;
}

/**
 * A text pasted in the text area, or loaded from a file the other side exported (metadata, a list of people), which
 * then fills the text area to be read before it is used. A byte order mark at the file's start is left out.
 */
export function TextFileField({
  label,
  hint,
  value,
  onChange,
  file,
  disabled = false,
  rows = 6,
}: {
  label: string;
  hint?: string;
  value: string;
  onChange(value: string): void;
  file: TextFile;
  disabled?: boolean;
  rows?: number;
}) {
  const id = useId();
  const [loaded, setLoaded] = useState<string | null>(null);

  const load = async (event: ChangeEvent<HTMLInputElement>) => {
    const chosen = event.target.files?.[0];
    // The same file chosen again after an edit is read again.
    event.target.value = '';
    if (!chosen) return;
    if (chosen.size > file.maxBytes) {
      setLoaded(file.tooLarge);
      return;
    }
    try {
      onChange((await readText(chosen)).replace(/^\uFEFF/, ''));
      setLoaded(file.loaded(chosen.name));
    } catch {
      setLoaded(file.unreadable);
    }
  };

  return (
    <div className="wide">
      <TextAreaField label={label} hint={hint} value={value} onChange={onChange} disabled={disabled} rows={rows} />
      <Load>
        <label htmlFor={`${id}-file`} aria-disabled={disabled}>
          {file.label}
          <input
            id={`${id}-file`}
            type="file"
            accept={file.accept}
            disabled={disabled}
            onChange={(event) => void load(event)}
          />
        </label>
        <span role="status">{loaded ?? ''}</span>
      </Load>
    </div>
  );
}
