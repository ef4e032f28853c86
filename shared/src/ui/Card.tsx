import styled from 'styled-components';
import { theme } from './theme';

export const Card = styled.section`
  background: ${theme.color.surface};
  border-radius: ${theme.radius};
  box-shadow: ${theme.shadow};
  padding: 20px;
`;

export const PageContainer = styled.main`
  max-width: 1200px;
  margin: 0 auto;
  padding: 24px 16px 48px;
`;
