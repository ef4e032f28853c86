import { useEffect, useState } from 'react';
import { Button } from '../ui/Button';
import { TEXT_ACCESS } from './texts';

/** How long 'Copiado' stays said before the button is ready to copy again. */
export const COPIED_SHOWN_MS = 3_000;

/**
 * 'Copiar' for one value an administrator hands to another system (a TXT record, a redirect address, a SCIM URL or
 * token, a SAML entity ID or metadata address). The button always reads 'Copiar' (its name for a screen reader,
 * `label`, starts with it); beside it, a status says 'Copiado' for a few seconds once the value is in the clipboard,
 * or, where there is none (a page not served over https), to copy it by hand.
 */
export function CopyButton({
  text,
  label,
}: {
  text: string /** What a screen reader hears: 'Copiar …'. */;
  label: string;
}) {
  const [state, setState] = useState<'copied' | 'failed' | null>(null);
  useEffect(() => {
    if (state !== 'copied') return;
    const timer = setTimeout(() => setState(null), COPIED_SHOWN_MS);
    return () => clearTimeout(timer);
  }, [state]);
  const copy = async () => {
    try {
      if (!navigator.clipboard) throw new Error('sin portapapeles');
      await navigator.clipboard.writeText(text);
      setState('copied');
    } catch {
      setState('failed');
    }
  };
  return (
    <>
      <Button $variant="secondary" aria-label={label} onClick={() => void copy()}>
        {TEXT_ACCESS.copy}
      </Button>
      <span role="status">
        {state === 'copied' ? TEXT_ACCESS.copied : state === 'failed' ? TEXT_ACCESS.copyFailed : ''}
      </span>
    </>
  );
}
