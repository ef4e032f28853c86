import styled from 'styled-components';
import { theme, type UserPlan } from '@portal/shared';
import { PlanOriginBadge } from '../../components/Offers';
import { WrapList } from '../../components/lists';
import { planBadges } from '../../rules/plans';

const Badge = styled.span`
  display: inline-flex;
  align-items: center;
  min-height: 28px;
  padding: 2px 12px;
  border-radius: 999px;
  background: ${theme.color.successBg};
  color: ${theme.color.success};
  border: 1px solid ${theme.color.success};
  font-size: 0.875rem;
  font-weight: 600;
`;

const ProBadge = styled(Badge)`
  background: ${theme.color.infoBg};
  color: ${theme.color.info};
  border-color: ${theme.color.info};
`;

const Title = styled.h2`
  margin: 0 0 6px;
  font-size: 1rem;
`;

const Item = styled.li`
  display: inline-flex;
  flex-wrap: wrap;
  align-items: center;
  gap: 4px 6px;
`;

/**
 * Spec §2: 'Plan gratuito' when every plan is free, else each plan under 'Tus Aplicaciones', with where it comes from
 * when a company's seat gives it ('Puesto de Minera Andina S.A.').
 */
export function PlanBadges({ plans }: { plans: readonly UserPlan[] }) {
  const badges = planBadges(plans);
  if (badges.kind === 'free') return <Badge>Plan gratuito</Badge>;
  return (
    <section aria-labelledby="tus-aplicaciones">
      <Title id="tus-aplicaciones">Tus Aplicaciones</Title>
      <WrapList>
        {badges.items.map((item) => (
          <Item key={item.id}>
            <ProBadge>{item.label}</ProBadge>
            {item.origin && <PlanOriginBadge origin={item.origin} />}
          </Item>
        ))}
      </WrapList>
    </section>
  );
}
