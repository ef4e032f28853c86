import type { CompanySamlServiceProvider } from '../types/entities';
import { CopyButton } from './CopyButton';
import { Facts } from './Facts';
import { TEXT_ACCESS } from './texts';

const T = TEXT_ACCESS;

/**
 * What the company's IT enters in its identity provider for the portal: its entity ID, its ACS and the address of its
 * metadata (which AD FS and Entra ID import at once), each with 'Copiar'. Known before anything is connected.
 */
export function SamlValues({ values }: { values: CompanySamlServiceProvider }) {
  const rows = [
    { label: T.spEntityId, value: values.entityId },
    { label: T.spAcsUrl, value: values.acsUrl },
    { label: T.spMetadataUrl, value: values.metadataUrl },
  ];
  return (
    <Facts aria-label={T.samlValues}>
      {rows.map((row) => (
        <CopyRow key={row.label} {...row} />
      ))}
      <dd className="wide">{T.samlValuesHint}</dd>
    </Facts>
  );
}

/** One value to hand over, labelled, with its 'Copiar'. */
export function CopyRow({ label, value }: { label: string; value: string }) {
  return (
    <>
      <dt>{label}</dt>
      <dd>
        <code>{value}</code>
      </dd>
      <dd>
        <CopyButton text={value} label={T.copyOf(label)} />
      </dd>
    </>
  );
}
