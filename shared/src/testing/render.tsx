import type { ReactElement } from 'react';
import { render } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';

/** Shows the current address and navigation state so tests can assert where a click, redirect or guard sent the person. */
export function LocationProbe() {
  const { pathname, search, state } = useLocation();
  return (
    <>
      <div data-testid="location">{pathname + search}</div>
      <div data-testid="location-state">{state ? JSON.stringify(state) : ''}</div>
    </>
  );
}

export interface RenderAtOptions {
  /** The navigation state the page is reached with. */
  state?: unknown;
  /** The route pattern the page is mounted on (`/apps/:id`); other addresses render nothing. */
  pattern?: string;
}

/** Renders a page at an address the way the host's router would, with a LocationProbe beside it. */
export function renderAt(path: string, ui: ReactElement, { state, pattern = '*' }: RenderAtOptions = {}) {
  const [pathname = path, query] = path.split('?');
  return render(
    <MemoryRouter initialEntries={[{ pathname, search: query ? `?${query}` : '', state }]}>
      <Routes>
        <Route path={pattern} element={ui} />
        {pattern !== '*' && <Route path="*" element={null} />}
      </Routes>
      <LocationProbe />
    </MemoryRouter>,
  );
}
