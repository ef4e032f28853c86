import { Route } from 'react-router-dom';
import { mountStandalone } from '@portal/shared';
import CalculatorPage from './pages/calculator/CalculatorPage';

// Standalone, for the team: the calculator on every path of its own origin.
mountStandalone(<Route path="*" element={<CalculatorPage />} />);
