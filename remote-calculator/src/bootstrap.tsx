import { Route } from 'react-router-dom';
import { mountStandalone, standalonePages } from '@portal/shared';
import CalculatorPage from './pages/calculator/CalculatorPage';

const page = standalonePages<'calculator'>({ './CalculatorPage': CalculatorPage });

// Standalone, for the team: the calculator on every path of its own origin.
mountStandalone(<Route path="*" element={page('./CalculatorPage')} />);
