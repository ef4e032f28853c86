import { Link } from 'react-router-dom';
import styled, { css } from 'styled-components';
import { theme } from './theme';

export type ButtonVariant = 'primary' | 'secondary' | 'ghost' | 'danger';

const variants: Record<ButtonVariant, ReturnType<typeof css>> = {
  primary: css`
    background: ${theme.color.primary};
    color: ${theme.color.primaryText};
    border-color: ${theme.color.primary};
    &:hover:not(:disabled) { background: ${theme.color.primaryHover}; }
  `,
  secondary: css`
    background: ${theme.color.surface};
    color: ${theme.color.primary};
    border-color: ${theme.color.primary};
    &:hover:not(:disabled) { background: ${theme.color.infoBg}; }
  `,
  ghost: css`
    background: transparent;
    color: ${theme.color.text};
    border-color: transparent;
    &:hover:not(:disabled) { background: ${theme.color.background}; }
  `,
  danger: css`
    background: ${theme.color.danger};
    color: ${theme.color.primaryText};
    border-color: ${theme.color.danger};
  `,
};

interface Look {
  $variant?: ButtonVariant;
  $block?: boolean;
}

const look = css<Look>`
  display: inline-flex;
  align-items: center;
  justify-content: center;
  gap: 8px;
  min-height: 44px;
  padding: 0 18px;
  border: 1px solid;
  border-radius: ${theme.radius};
  font: inherit;
  font-weight: 600;
  cursor: pointer;
  width: ${(p) => (p.$block ? '100%' : 'auto')};
  ${(p) => variants[p.$variant ?? 'primary']}
  &:focus-visible { outline: 3px solid ${theme.color.primary}; outline-offset: 2px; }
`;

export const Button = styled.button.attrs<{ type?: string }>((props) => ({ type: props.type ?? 'button' }))<Look>`
  ${look}
  &:disabled { opacity: 0.55; cursor: not-allowed; }
`;

/** A link to a page of the portal that reads as a button: the next step a page offers. */
export const ButtonLink = styled(Link)<Look>`
  ${look}
  text-decoration: none;
`;
