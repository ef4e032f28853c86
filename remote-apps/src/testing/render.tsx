import type { ReactElement } from 'react';
import { render } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';

/** Shows the current address so tests can assert where a click sent the person. */
export function LocationProbe() {
  const { pathname, search } = useLocation();
  return <div data-testid="location">{pathname + search}</div>;
}

export function renderAt(path: string, ui: ReactElement, pattern = '*') {
  return render(
    <MemoryRouter initialEntries={[path]}>
      <Routes>
        <Route path={pattern} element={ui} />
        {pattern !== '*' && <Route path="*" element={null} />}
      </Routes>
      <LocationProbe />
    </MemoryRouter>,
  );
}
