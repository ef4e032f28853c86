import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createGlobalStyle } from 'styled-components';
import { theme } from '@portal/shared';
import CalculatorPage from './pages/calculator/CalculatorPage';

// Standalone, this bootstrap stands in for the host, which owns the global styles inside the portal.
const StandaloneGlobalStyle = createGlobalStyle`
  body {
    margin: 0;
    background: ${theme.color.background};
    font-family: ${theme.font};
  }
`;

const container = document.getElementById('root');
if (!container) throw new Error('Missing #root element');

createRoot(container).render(
  <StrictMode>
    <StandaloneGlobalStyle />
    <CalculatorPage />
  </StrictMode>,
);
