import { SessionsSection } from './SessionsSection';

/**
 * 'Seguridad' (issue 20): a thin list of sections, each self-contained. Sessions first; passkeys and the second
 * factor add their own sections here.
 */
export function SecurityTab() {
  return (
    <div>
      <SessionsSection />
    </div>
  );
}
