import styled from 'styled-components';
import { Alert, Facts } from '@portal/shared';
import type { CompanySamlConnection } from '../../api/company-types';
import { StatusPill } from '../../components/StatusPill';
import { certificateStatus } from '../../rules/companies';
import { formatExpiryDate } from '../../rules/format';
import { Notices } from './SectionParts';
import { TEXT_COMPANY } from './texts';

const T = TEXT_COMPANY;
const when = (iso: string) => new Date(iso).toLocaleString('es-ES');

const Certificates = styled.ul`
  list-style: none;
  margin: 0;
  padding: 0;
  display: grid;
  gap: 8px;
  li { display: flex; flex-wrap: wrap; align-items: center; gap: 4px 10px; }
  code { flex: 1 1 100%; }
`;

/**
 * The SAML connection as it stands: what its metadata says of the provider (entity ID, sign-in address, each signing
 * certificate and its end, warned about within 30 days and once past), the domains, the password, the last sign-in
 * and the last failure.
 */
export function SamlFacts({ connection, now }: { connection: CompanySamlConnection; now: number }) {
  const certificates = connection.idp.certificados.map((certificate) => ({
    ...certificate,
    status: certificateStatus(certificate.venceEn, now),
  }));
  const expired = certificates.find((certificate) => certificate.status.tone === 'expired');
  const expiring = certificates.find((certificate) => certificate.status.tone === 'warning');
  return (
    <>
      <Notices>
        {connection.ultimoError && (
          <Alert>
            {T.lastError(connection.ultimoErrorEn ? when(connection.ultimoErrorEn) : T.never, connection.ultimoError)}
          </Alert>
        )}
        {/* Said as a notice, not an error: it is read on arrival, and an error would take the keyboard's place. */}
        {expired && <Alert tone="info">{T.certificateExpired(formatExpiryDate(expired.venceEn))}</Alert>}
        {!expired && expiring && <Alert tone="info">{T.certificateExpiring(expiring.status.text.toLowerCase())}</Alert>}
      </Notices>
      <Facts aria-label={T.providerForm}>
        <dt>{T.protocol}</dt>
        <dd className="wide">{T.protocolSaml}</dd>
        <dt>{T.idpEntityId}</dt>
        <dd className="wide">{connection.idp.entityId}</dd>
        <dt>{T.idpSsoUrl}</dt>
        <dd className="wide">{connection.idp.ssoUrl}</dd>
        {connection.idp.urlMetadatos && (
          <>
            <dt>{T.metadataAddress}</dt>
            <dd className="wide">
              <code>{connection.idp.urlMetadatos}</code>
            </dd>
          </>
        )}
        <dt id="saml-certificates">{T.certificates}</dt>
        <dd className="wide">
          {certificates.length === 0 ? (
            T.noCertificates
          ) : (
            <Certificates aria-labelledby="saml-certificates">
              {certificates.map((certificate, index) => (
                <li key={certificate.huella} aria-label={T.certificate(index + 1)}>
                  <span>{T.fingerprint}</span>
                  <StatusPill
                    $tone={
                      certificate.status.tone === 'expired'
                        ? 'danger'
                        : certificate.status.tone === 'warning'
                          ? 'warning'
                          : 'ok'
                    }
                  >
                    {certificate.status.text}
                  </StatusPill>
                  <code>{certificate.huella}</code>
                </li>
              ))}
            </Certificates>
          )}
        </dd>
        <dt>{T.accessDomains}</dt>
        <dd className="wide">{connection.dominios.join(', ')}</dd>
        <dt>{T.passwordAllowed}</dt>
        <dd className="wide">{connection.permitirContrasena ? T.passwordAllowedYes : T.passwordAllowedNo}</dd>
        <dt>{T.lastAccess}</dt>
        <dd className="wide">{connection.ultimoAcceso ? when(connection.ultimoAcceso) : T.never}</dd>
      </Facts>
    </>
  );
}
