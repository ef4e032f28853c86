import '@testing-library/jest-dom';
import { configure } from '@testing-library/react';

// Component tests talk to a real local HTTP server; on a loaded machine the first answer can take over a second.
configure({ asyncUtilTimeout: 5000 });
