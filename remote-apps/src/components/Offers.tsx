import styled from 'styled-components';
import { Button, theme, type Plan, VisuallyHidden } from '@portal/shared';
import { formatUsd, SUITE_PRICES } from '../rules/plans';
import { Row } from './Page';

export const COMING_SOON = 'Próximamente';

const Features = styled.ul`
  margin: 8px 0 16px;
  padding: 0;
  list-style: none;
  li {
    position: relative;
    padding-left: 24px;
    margin: 6px 0;
  }
  li::before {
    content: '✓';
    position: absolute;
    left: 0;
    color: ${theme.color.success};
    font-weight: 700;
  }
`;

export function FeatureList({ items }: { items: readonly string[] }) {
  return (
    <Features>
      {items.map((item) => (
        <li key={item}>{item}</li>
      ))}
    </Features>
  );
}

const Prices = styled.div`
  display: grid;
  grid-template-columns: repeat(auto-fit, minmax(124px, 1fr));
  gap: 8px;
`;

const PriceButton = styled(Button)`
  flex-direction: column;
  gap: 0;
  min-height: 56px;
  padding: 6px 8px;
  line-height: 1.25;
  white-space: nowrap;
  small { font-weight: 400; }
`;

/**
 * Spec §2: purchase is shown as coming soon: each price is a disabled buy button reading 'Próximamente'. Its name says
 * the price and the period, so a screen reader hears what the button would buy: the words on screen (WCAG 2.5.3).
 */
export function ComingSoonPrices({ monthly, annual }: { monthly: number | null; annual: number | null }) {
  return (
    <Prices>
      <PriceButton disabled>
        <span>{formatUsd(monthly)} / mes</span>
        <VisuallyHidden>: </VisuallyHidden>
        <small>{COMING_SOON}</small>
      </PriceButton>
      <PriceButton $variant="secondary" disabled>
        <span>{formatUsd(annual)} / año</span>
        <VisuallyHidden>: </VisuallyHidden>
        <small>{COMING_SOON}</small>
      </PriceButton>
    </Prices>
  );
}

export function PlanPrices({ plan }: { plan: Pick<Plan, 'precioMensual' | 'precioAnual'> }) {
  return <ComingSoonPrices monthly={plan.precioMensual} annual={plan.precioAnual} />;
}

export const CURRENT_PLAN = 'Tu plan actual';

const Badge = styled.span`
  display: inline-flex;
  align-items: center;
  padding: 2px 10px;
  border-radius: 999px;
  border: 1px solid ${theme.color.success};
  background: ${theme.color.successBg};
  color: ${theme.color.success};
  font-size: 0.8125rem;
  font-weight: 600;
  white-space: nowrap;
`;

/** A plan's title with its badge ('Tu plan actual') at the right, below it when the row is narrow. */
export const PlanTitleRow = styled(Row)`
  justify-content: space-between;
  gap: 6px 12px;
`;

const OriginBadge = styled(Badge)`
  border-color: ${theme.color.border};
  background: ${theme.color.background};
  color: ${theme.color.text};
  white-space: normal;
`;

/** Where a plan comes from ('Puesto de Minera Andina S.A.'), beside its badge. */
export function PlanOriginBadge({ origin }: { origin: string }) {
  return <OriginBadge>{origin}</OriginBadge>;
}

const Badges = styled.span`
  display: inline-flex;
  flex-wrap: wrap;
  gap: 4px 6px;
`;

/** Marks the plan the person has, in words (not by colour alone), and where it comes from when a company gives it. */
export function CurrentPlanBadge({ origin = null }: { origin?: string | null }) {
  if (!origin) return <Badge>{CURRENT_PLAN}</Badge>;
  return (
    <Badges>
      <Badge>{CURRENT_PLAN}</Badge>
      <PlanOriginBadge origin={origin} />
    </Badges>
  );
}

export const SUITE_NAME = 'C+Suite Completa';
export const SUITE_INCLUDES = ['Control Max 360 PRO', 'Beto Pro PRO', 'TX30 PRO'];

export const SUITE = { ...SUITE_PRICES, name: SUITE_NAME, includes: SUITE_INCLUDES };
