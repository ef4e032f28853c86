import { createGlobalStyle } from 'styled-components';
import { theme } from '@portal/shared';

/** Global styles live only in the shell (DESIGN.md); remotes style their own components. */
export const GlobalStyle = createGlobalStyle`
  *, *::before, *::after { box-sizing: border-box; }
  html { -webkit-text-size-adjust: 100%; }
  body {
    margin: 0;
    font-family: ${theme.font};
    color: ${theme.color.text};
    background: ${theme.color.background};
    line-height: 1.5;
  }
  a { color: ${theme.color.primary}; }
  :focus-visible { outline: 3px solid ${theme.color.primary}; outline-offset: 2px; }
  @media (prefers-reduced-motion: reduce) {
    *, *::before, *::after { transition-duration: 0.01ms !important; animation-iteration-count: 1 !important; }
  }
`;
