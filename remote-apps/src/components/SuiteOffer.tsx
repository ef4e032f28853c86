import styled from 'styled-components';
import { theme } from '@portal/shared';
import { ComingSoonPrices, FeatureList, SUITE } from './Offers';

const Box = styled.section<{ $wide: boolean }>`
  padding: 20px;
  border-radius: ${theme.radius};
  color: #ffffff;
  background: linear-gradient(120deg, #1e3a8a, #1d4ed8 60%, #0f766e);
  display: grid;
  gap: 8px 24px;
  grid-template-columns: ${(p) => (p.$wide ? '1fr minmax(260px, 360px)' : '1fr')};
  align-items: center;
  h2 { margin: 0; font-size: 1.375rem; }
  p { margin: 0; opacity: 0.92; }
  ul li::before { color: #a7f3d0; }
  button:disabled { opacity: 0.8; }
  @media (max-width: ${theme.breakpoint.mobile}) { grid-template-columns: 1fr; }
`;

/** Spec §2, §9: the complete suite, 39 USD a month and 299 USD a year, purchase coming soon. */
export function SuiteOffer({ wide = false }: { wide?: boolean }) {
  return (
    <Box $wide={wide} aria-labelledby="suite-title">
      <div>
        <h2 id="suite-title">{SUITE.name}</h2>
        <p>
          {SUITE.monthly} {SUITE.currency} al mes · {SUITE.annual} {SUITE.currency} al año
        </p>
        <FeatureList items={SUITE.includes} />
      </div>
      <ComingSoonPrices monthly={SUITE.monthly} annual={SUITE.annual} />
    </Box>
  );
}
