/** What the API says about password sign-in, locks and code limits: each Spanish text under one key, looked up where the error is made. */
export const signInMessages = {
  invalidCredentials: 'Credenciales inválidas',
  /** An active account with no password: activated by an administrator, or made with Google or Apple. */
  passwordNotSet:
    'Tu cuenta está activa pero aún no tiene contraseña. Elígela con «¿Olvidaste tu contraseña?»: te enviaremos un código a tu email.',
  /** `date` (dd/mm/yyyy) and `time` (hh:mm, UTC): when the email's wrong codes of the day stop being counted. */
  codeGuessesExceeded: (date: string, time: string) =>
    `Demasiados códigos incorrectos. Podrás intentarlo de nuevo el ${date} a las ${time} (hora UTC).`,
  invitationMailLimit: (minutes: number) =>
    `Se enviaron demasiadas invitaciones en la última hora. Podrás enviar más en ${minutes} ${minutes === 1 ? 'minuto' : 'minutos'}.`,
  codeMailLimit: (minutes: number) =>
    `Has pedido demasiados códigos. Inténtalo de nuevo en ${minutes} ${minutes === 1 ? 'minuto' : 'minutos'}.`,
  codeCooldown: (seconds: number) =>
    `Espera ${seconds} ${seconds === 1 ? 'segundo' : 'segundos'} antes de pedir otro código`,
} as const;
