// The Spanish texts of the portal as a SAML identity provider: the administrator's refusals and the pages a browser sees.
import { quoted } from '../../../lib/errors.js';

export const samlIdpMessages = {
  nameRequired: 'El nombre de la aplicación SAML es requerido',
  metadataRequired: 'Pega los metadatos SAML del proveedor de servicio (el XML de su EntityDescriptor)',
  metadataUnreadable: (why: string) => `Los metadatos SAML no son válidos: ${why}`,
  notXml: 'no son un documento XML legible',
  tooLarge: 'pasan del tamaño máximo (1 MiB)',
  documentType: 'declaran un tipo de documento o entidades, que no se aceptan',
  noSpDescriptor: 'no tienen un SPSSODescriptor (¿son los metadatos de un proveedor de identidad?)',
  noEntityId: 'les falta el entityID',
  entityIdTooLong: 'el entityID pasa de 1024 caracteres',
  noPostAcs: 'no publican ningún AssertionConsumerService con el enlace HTTP-POST',
  badAddress: (url: string) => `la dirección ${quoted(url)} no es https (http solo en localhost)`,
  badCertificate: 'un certificado de firma no es un X.509 legible',
  signedWithoutCertificate: 'piden firmar las solicitudes (AuthnRequestsSigned) pero no traen un certificado de firma',
  entityIdTaken: (entityId: string) => `Ya hay una aplicación SAML registrada con el entityID ${quoted(entityId)}`,
  unknownApp: (id: number) => `No existe la app ${id}`,
  appNotFound: 'Aplicación SAML no encontrada',
  requestNotFound: 'La solicitud de inicio de sesión expiró o ya se usó. Vuelve a la aplicación e inténtalo de nuevo.',
  consentRequired: 'Esta aplicación necesita tu permiso',
  // The pages the API itself shows a browser.
  pageTitle: 'No se pudo iniciar sesión en la aplicación',
  unknownSp: 'La aplicación que te envió aquí no está registrada en el portal.',
  foreignAcs:
    'La dirección a la que la aplicación pidió volver no está registrada en el portal. Por seguridad no te enviamos allí.',
  badSignature: 'La firma de la solicitud de la aplicación no es válida.',
  malformed: 'La solicitud de la aplicación no es válida.',
  deliveryGone: 'Este enlace ya se usó o expiró. Vuelve a la aplicación e inicia sesión de nuevo desde allí.',
  continueTitle: 'Continuando a la aplicación',
  continueButton: 'Continuar',
  continueHint: 'Si no pasas a la aplicación en unos segundos, pulsa Continuar.',
  logoutPageTitle: 'No se pudo confirmar el cierre de sesión en la aplicación',
  logoutRefused:
    'La respuesta de la aplicación no corresponde a ningún cierre de sesión en curso o su firma no es válida. No se cambió nada.',
  logoutContinue: 'Continuar cerrando sesión',
  logoutToLogin: 'Ir a Iniciar sesión',
} as const;
