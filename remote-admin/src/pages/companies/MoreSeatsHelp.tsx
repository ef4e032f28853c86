import styled from 'styled-components';
import { getRuntimeConfig, theme } from '@portal/shared';
import { TEXT_COMPANY } from './texts';

const Help = styled.p`
  margin: 0;
  color: ${theme.color.muted};
  a { color: ${theme.color.primary}; font-weight: 600; overflow-wrap: anywhere; }
`;

/**
 * How a company gets more seats or renews: only the vendor sells licences, so its administrators write to the support
 * address (SUPPORT_EMAIL, in the runtime config), the mail's subject naming the company; without one configured, they
 * ask whoever sold them the licences.
 */
export function MoreSeatsHelp({ company, id }: { company: string; id?: string }) {
  const { supportEmail } = getRuntimeConfig().links;
  const subject = encodeURIComponent(TEXT_COMPANY.moreSeatsSubject(company));
  return (
    <Help id={id}>
      {TEXT_COMPANY.moreSeats}{' '}
      {supportEmail ? (
        <>
          {TEXT_COMPANY.moreSeatsWrite} <a href={`mailto:${supportEmail}?subject=${subject}`}>{supportEmail}</a>.
        </>
      ) : (
        TEXT_COMPANY.moreSeatsNoSupport
      )}
    </Help>
  );
}
