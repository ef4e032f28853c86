import styled from 'styled-components';
import { theme } from './theme';

const Mark = styled.span`
  display: inline-flex;
  align-items: center;
  justify-content: center;
  flex: none;
  width: 32px;
  height: 32px;
  border-radius: 8px;
  background: ${theme.color.primary};
  color: ${theme.color.primaryText};
  font-size: 0.95rem;
  font-weight: 800;
`;

/** The portal's mark, the same in the top bar and on the sign-in screens. Decorative: a name always stands beside it. */
export function LogoMark() {
  return <Mark aria-hidden="true">C+</Mark>;
}
