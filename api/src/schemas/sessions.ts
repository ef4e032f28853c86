import { Type } from 'typebox';

/** A session id: 32 random bytes in base64url (43 characters). */
export const SessionId = Type.String({ pattern: '^[A-Za-z0-9_-]{1,100}$', description: 'Id de la sesión' });

export const Session = Type.Object({
  id: Type.String(),
  device: Type.String({ description: "'Computadora', 'Móvil', 'Tableta'…" }),
  browser: Type.String(),
  os: Type.String(),
  label: Type.String({ description: "Navegador y sistema: 'Chrome en Linux'" }),
  address: Type.String({ description: 'Dirección del cliente al iniciar la sesión' }),
  createdAt: Type.String({ format: 'date-time' }),
  lastSeenAt: Type.String({
    format: 'date-time',
    description: 'Último uso (se actualiza como mucho una vez por minuto)',
  }),
  current: Type.Boolean({ description: 'La sesión del token de esta petición' }),
  app: Type.Union([Type.String(), Type.Null()], {
    description:
      'La app de un dispositivo que inició sesión con un código (/dispositivo): su sesión se cierra como las demás; null para un navegador',
  }),
});

export const SessionsEnded = Type.Object({ ended: Type.Integer({ description: 'Sesiones cerradas' }) });
