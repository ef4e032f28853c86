import '@testing-library/jest-dom';
import { configure } from '@testing-library/react';

// Component tests talk to a real local HTTP server; on a loaded machine the first answer can take over a second.
configure({ asyncUtilTimeout: 5000 });

// Each test signs in afresh in the same page (module state lives on between tests of one file), as after a page load.
import { forgetLandings } from '../../shared/src/navigation/history-entry';

beforeEach(() => forgetLandings());
