import type { CompanySamlProvider } from '../types/entities';
import { AddressField } from './AccessFormParts';
import { MetadataField } from './MetadataField';
import type { ProtocolFieldsProps, ProtocolPart } from './sso-part';
import { TEXT_ACCESS } from './texts';

const T = TEXT_ACCESS;

/** What the SAML part holds as typed: the metadata XML or, instead, its address; both start empty. */
export interface SamlFieldValues {
  metadata: string;
  address: string;
}

/**
 * The company's provider by SAML 2.0: its metadata XML (pasted or loaded from the file it exported) or, instead, the
 * address the API reads it from (and reads again each day); one of them the first time, both left empty later keeps
 * the saved metadata and its address.
 */
export const SAML_PART: ProtocolPart<SamlFieldValues, CompanySamlProvider> = {
  labels: { metadata: T.metadata, urlMetadatos: T.metadataAddress },
  // The saved metadata is not sent back: an edit starts empty, and empty keeps it.
  initial: () => ({ metadata: '', address: '' }),
  body: (values, current) => {
    const xml = values.metadata.trim();
    const url = values.address.trim();
    const problem = xml && url ? T.metadataOneSource : !current && !xml && !url ? T.metadataRequired : null;
    return {
      problem,
      fields: { tipo: 'saml' as const, ...(xml ? { metadata: xml } : {}), ...(url ? { urlMetadatos: url } : {}) },
    };
  },
  Fields: SamlFields,
};

function SamlFields({ values, onChange, current, busy }: ProtocolFieldsProps<SamlFieldValues, CompanySamlProvider>) {
  return (
    <>
      <MetadataField
        label={T.metadata}
        hint={current ? T.metadataKept : T.metadataHint}
        value={values.metadata}
        onChange={(metadata) => onChange({ ...values, metadata })}
        disabled={busy}
      />
      <AddressField
        label={T.metadataAddress}
        hint={T.metadataAddressHint}
        value={values.address}
        busy={busy}
        onChange={(address) => onChange({ ...values, address })}
      />
    </>
  );
}
