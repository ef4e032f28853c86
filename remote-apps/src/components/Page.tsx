import type { ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';
import styled from 'styled-components';
import { Button, PageContainer, theme } from '@portal/shared';

// Pages set their own font, colour and box model: they render inside the host and standalone alike.
export const Page = styled(PageContainer)`
  font-family: ${theme.font};
  color: ${theme.color.text};
  line-height: 1.5;
  *,
  *::before,
  *::after {
    box-sizing: border-box;
  }
`;

export const Heading = styled.h1`
  margin: 0;
  font-size: 1.75rem;
  line-height: 1.25;
`;

export const Lead = styled.p`
  margin: 4px 0 24px;
  color: ${theme.color.muted};
`;

export const Muted = styled.p`
  color: ${theme.color.muted};
`;

export const Row = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: 12px;
  align-items: center;
`;

/** A button that goes somewhere inside the portal. */
export function GoButton({
  to,
  children,
  variant,
}: {
  to: string;
  children: ReactNode;
  variant?: 'primary' | 'secondary';
}) {
  const navigate = useNavigate();
  return (
    <Button $variant={variant} onClick={() => navigate(to)}>
      {children}
    </Button>
  );
}

/** Spec §2: the marketing pages lead back with 'Volver a Aplicaciones'. */
export function BackToApps() {
  return (
    <GoButton to="/apps" variant="secondary">
      Volver a Aplicaciones
    </GoButton>
  );
}
