import { useState } from 'react';
import { Button } from '@portal/shared';
import { TEXT_COMPANY } from '../../texts';

/**
 * 'Copiar' for one value of the company screens (a TXT record, a redirect address, a SCIM URL or token): 'Copiado'
 * once it is in the clipboard; where there is none (a page not served over https), it says to copy it by hand.
 */
export function CopyButton({
  text,
  label,
}: {
  text: string /** What a screen reader hears: 'Copiar …'. */;
  label: string;
}) {
  const [state, setState] = useState<'copied' | 'failed' | null>(null);
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
        {state === 'copied' ? TEXT_COMPANY.copied : TEXT_COMPANY.copy}
      </Button>
      <span role="status">{state === 'failed' ? TEXT_COMPANY.copyFailed : ''}</span>
    </>
  );
}
