import { useEffect, useState } from 'react';
import { Alert } from '@portal/shared';
import { getInteractionDetails } from '../../interaction/api';

/**
 * Above the form when an app's sign-in with the portal brought the person here: the app's name as the API knows it
 * (never from the address), or the sentence without it while it loads or when it cannot be read.
 */
export function InteractionNotice({ uid }: { uid: string }) {
  const [app, setApp] = useState<string | null>(null);
  useEffect(() => {
    let current = true;
    getInteractionDetails(uid).then(
      (details) => {
        if (current) setApp(details.cliente.nombre);
      },
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [uid]);
  return <Alert tone="info">{app ? `Inicia sesión para continuar a ${app}.` : 'Inicia sesión para continuar.'}</Alert>;
}
