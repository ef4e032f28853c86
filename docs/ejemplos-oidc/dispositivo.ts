// Un dispositivo sin teclado ni navegador (un panel de planta, una tableta de quiosco, una herramienta de línea de
// comandos): cliente público con `dispositivos`, el flujo de dispositivo (RFC 8628) con openid-client. El dispositivo
// muestra un código; la persona lo escribe en el portal (/dispositivo) desde su teléfono u ordenador y confirma.
import * as oidc from 'openid-client';

export async function iniciarSesionEnDispositivo(
  emisor: string,
  clientId: string,
  mostrar: (texto: string) => void,
  opciones: { local?: boolean } = {},
) {
  const portal = await oidc.discovery(
    new URL(emisor),
    clientId,
    undefined,
    oidc.None(),
    // Solo para probar contra `npm start` en esta máquina (http); en producción el portal va por https.
    opciones.local ? { execute: [oidc.allowInsecureRequests] } : undefined,
  );
  const inicio = await oidc.initiateDeviceAuthorization(portal, { scope: 'openid profile offline_access' });
  mostrar(`Abre ${inicio.verification_uri} y escribe el código ${inicio.user_code}`);
  // Pregunta cada `interval` segundos (más despacio si el portal dice slow_down) hasta que la persona responde:
  // access_denied si rechaza, expired_token si el código caduca (10 minutos).
  const tokens = await oidc.pollDeviceAuthorizationGrant(portal, inicio);
  return {
    persona: tokens.claims()?.sub,
    tokenDeAcceso: tokens.access_token,
    tokenDeActualizacion: tokens.refresh_token,
  };
}
