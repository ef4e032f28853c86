import { TEXT_ACCESS } from './texts';
import { type TextFile, TextFileField } from './TextFileField';

/** The API's own bound on a metadata document: a bigger file is refused here, before it fills the field. */
export const MAX_METADATA_BYTES = 1024 * 1024;

const metadataFile: TextFile = {
  label: TEXT_ACCESS.loadMetadataFile,
  accept: '.xml,application/xml,text/xml,application/samlmetadata+xml',
  maxBytes: MAX_METADATA_BYTES,
  loaded: TEXT_ACCESS.metadataLoaded,
  tooLarge: TEXT_ACCESS.metadataTooLarge,
  unreadable: TEXT_ACCESS.metadataUnreadable,
};

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
  return (
    <TextFileField
      label={label}
      hint={hint}
      value={value}
      onChange={onChange}
      file={metadataFile}
      disabled={disabled}
    />
  );
}
