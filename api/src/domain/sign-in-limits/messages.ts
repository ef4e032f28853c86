/** What the API says about sign-in locks and code and mail limits: each Spanish text under one key, looked up where the error is made. */
export const limitMessages = {
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
