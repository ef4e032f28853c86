import type { PasskeysUnavailable } from './place';

/**
 * 'Las llaves de acceso no funcionan en una dirección IP. Abre el portal en http://localhost:8080 para usarlas.', the
 * address a link to this same page there. Text only: the caller puts it in its box.
 */
export function PasskeysElsewhere({ unavailable }: { unavailable: PasskeysUnavailable }) {
  const { reason, address, advice } = unavailable;
  return (
    <>
      {reason}{' '}
      {address ? (
        <>
          Abre el portal en <a href={address.href}>{address.origin}</a> para usarlas.
        </>
      ) : (
        advice
      )}
    </>
  );
}
