/** A mail ready to queue: Spanish subject, plain text and HTML with the same content. */
export interface MailContent {
  subject: string;
  text: string;
  html: string;
}

const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/** Every mail's HTML: the page and its white card, with `blocks` (already escaped HTML) one per line inside. */
function htmlPage(blocks: string[]): string {
  return `<!doctype html>
<html lang="es">
<body style="margin:0;padding:24px;background:#f4f6f8;font-family:Arial,Helvetica,sans-serif;color:#1f2933">
  <div style="max-width:480px;margin:0 auto;background:#ffffff;border-radius:8px;padding:32px">
${blocks.map((block) => `    ${block}`).join('\n')}
  </div>
</body>
</html>`;
}

interface CodeMail {
  subject: string;
  greeting: string;
  intro: string;
  code: string;
  action: string;
  link: string;
  footer: string;
}

function codeMail(mail: CodeMail): MailContent {
  const text = [
    mail.greeting,
    '',
    mail.intro,
    '',
    `    ${mail.code}`,
    '',
    'El código vence en 10 minutos y solo se puede usar una vez.',
    `${mail.action}: ${mail.link}`,
    '',
    mail.footer,
  ].join('\n');
  const html = htmlPage([
    `<p style="margin:0 0 16px">${escapeHtml(mail.greeting)}</p>`,
    `<p style="margin:0 0 24px">${escapeHtml(mail.intro)}</p>`,
    `<p style="margin:0 0 24px;font-size:32px;font-weight:bold;letter-spacing:8px;text-align:center">${escapeHtml(mail.code)}</p>`,
    '<p style="margin:0 0 24px;color:#52606d">El código vence en 10 minutos y solo se puede usar una vez.</p>',
    `<p style="margin:0 0 24px"><a href="${escapeHtml(mail.link)}" style="color:#1565c0">${escapeHtml(mail.action)}</a></p>`,
    `<p style="margin:0;font-size:13px;color:#7b8794">${escapeHtml(mail.footer)}</p>`,
  ]);
  return { subject: mail.subject, text, html };
}

/**
 * The greeting, with the account's name only when it was proved: pass the name of an active account (set at a
 * verified registration, by the identity provider, by its holder signed in, or by an administrator), never a name
 * typed into a registration form whose address has not answered. Anyone can register any address with any "name",
 * and a name that reads like a warning ("Tu cuenta será bloqueada. Verifica en https://…") would arrive in the
 * portal's own, genuine mail.
 */
const greeting = (provedName = '') => (provedName.trim() ? `Hola, ${provedName.trim()}:` : 'Hola:');

function pageLink(portalUrl: string, path: string, email: string): string {
  const url = new URL(path, portalUrl);
  url.searchParams.set('email', email);
  return url.toString();
}

/**
 * The registration code, to an address that has not proved anything yet: it greets nobody by name (`greeting`), so
 * it takes no name at all.
 */
export function verificationCodeMail(options: { email: string; code: string; portalUrl: string }): MailContent {
  return codeMail({
    subject: `Tu código de verificación: ${options.code}`,
    greeting: greeting(),
    intro: 'Usa este código para verificar tu email y activar tu cuenta del portal:',
    code: options.code,
    action: 'Ir a la verificación',
    link: pageLink(options.portalUrl, '/verify-email', options.email),
    footer: 'Si no creaste una cuenta, ignora este correo.',
  });
}

/** The password-reset code: only ever mailed to an active account, whose stored name was proved (`greeting`). */
export function resetCodeMail(options: { name: string; email: string; code: string; portalUrl: string }): MailContent {
  return codeMail({
    subject: `Tu código para cambiar la contraseña: ${options.code}`,
    greeting: greeting(options.name),
    intro: 'Recibimos una solicitud para cambiar la contraseña de tu cuenta. Usa este código:',
    code: options.code,
    action: 'Cambiar la contraseña',
    link: pageLink(options.portalUrl, '/reset-password', options.email),
    footer: 'Si no lo pediste, ignora este correo: tu contraseña no cambia.',
  });
}

/**
 * An administrator activated a pending account: it has no password (none of its registrations proved the mailbox), so
 * the mail says how to choose one. The name on a pending account was typed by whoever registered first, unproved: the
 * greeting names nobody (`greeting`).
 */
export function accountActivatedMail(options: { email: string; portalUrl: string }): MailContent {
  const link = pageLink(options.portalUrl, '/forgot-password', options.email);
  const lines = [
    'Un administrador verificó tu email y tu cuenta del portal ya está activa.',
    'Tu cuenta aún no tiene contraseña: elígela para entrar con tu email. Te enviaremos un código a este correo.',
  ];
  const text = [
    greeting(),
    '',
    ...lines,
    '',
    `Elegir mi contraseña: ${link}`,
    '',
    'Si no creaste una cuenta, ignora este correo.',
  ].join('\n');
  const html = htmlPage([
    `<p style="margin:0 0 16px">${escapeHtml(greeting())}</p>`,
    ...lines.map((line) => `<p style="margin:0 0 16px">${escapeHtml(line)}</p>`),
    `<p style="margin:0 0 24px"><a href="${escapeHtml(link)}" style="color:#1565c0">Elegir mi contraseña</a></p>`,
    '<p style="margin:0;font-size:13px;color:#7b8794">Si no creaste una cuenta, ignora este correo.</p>',
  ]);
  return { subject: 'Tu cuenta está activa', text, html };
}

interface NoticeMail {
  subject: string;
  name: string;
  intro: string;
  /** Shown as a list under the intro. */
  lines: string[];
  advice: string;
  linkText: string;
  link: string;
}

/** A notice about the account (no code): greeting, what happened, the details as a list, what to do, a link. */
function noticeMail(mail: NoticeMail): MailContent {
  const text = [
    greeting(mail.name),
    '',
    mail.intro,
    '',
    ...mail.lines.map((line) => `    ${line}`),
    '',
    mail.advice,
    mail.link,
  ].join('\n');
  const html = htmlPage([
    `<p style="margin:0 0 16px">${escapeHtml(greeting(mail.name))}</p>`,
    `<p style="margin:0 0 16px">${escapeHtml(mail.intro)}</p>`,
    `<ul style="margin:0 0 24px">${mail.lines.map((line) => `<li>${escapeHtml(line)}</li>`).join('')}</ul>`,
    `<p style="margin:0 0 24px">${escapeHtml(mail.advice)}</p>`,
    `<p style="margin:0"><a href="${escapeHtml(mail.link)}" style="color:#1565c0">${escapeHtml(mail.linkText)}</a></p>`,
  ]);
  return { subject: mail.subject, text, html };
}

/** Where and when something was done: the session's device, browser, address and the time (UTC). */
interface Origin {
  device: string;
  browser: string;
  address: string;
  at: Date;
}

function originLines(origin: Origin): string[] {
  const when = new Intl.DateTimeFormat('es-ES', { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' }).format(
    origin.at,
  );
  return [
    `Dispositivo: ${origin.device}`,
    `Navegador: ${origin.browser}`,
    `Dirección: ${origin.address}`,
    `Fecha: ${when} (UTC)`,
  ];
}

const securityPage = (portalUrl: string) => new URL('/perfil?tab=seguridad', portalUrl).toString();

/** A sign-in from a device and browser this account never used before. */
export function newSignInMail(options: Origin & { name: string; portalUrl: string }): MailContent {
  return noticeMail({
    subject: 'Nuevo inicio de sesión',
    name: options.name,
    intro: 'Se ha iniciado sesión en tu cuenta del portal desde un dispositivo que no habías usado antes:',
    lines: originLines(options),
    advice:
      'Si fuiste tú, no tienes que hacer nada. Si no fuiste tú, cambia tu contraseña ahora y cierra esa sesión en Mi perfil > Seguridad.',
    linkText: 'Revisar mis sesiones',
    link: securityPage(options.portalUrl),
  });
}

/** A change to the ways of proving who one is, beyond the password. */
export type SecurityChange =
  | { kind: 'totp-added' }
  | { kind: 'totp-removed' }
  | { kind: 'recovery-codes-replaced' }
  | { kind: 'passkey-added'; passkeyName: string }
  | { kind: 'passkey-removed'; passkeyName: string };

function describeChange(change: SecurityChange): string {
  switch (change.kind) {
    case 'totp-added':
      return 'Se activó la verificación en dos pasos con una aplicación de autenticación.';
    case 'totp-removed':
      return 'Se desactivó la verificación en dos pasos con la aplicación de autenticación, y sus códigos de recuperación dejaron de valer.';
    case 'recovery-codes-replaced':
      return 'Se generaron códigos de recuperación nuevos; los anteriores dejaron de valer.';
    case 'passkey-added':
      return `Se agregó la llave de acceso «${change.passkeyName}».`;
    case 'passkey-removed':
      return `Se eliminó la llave de acceso «${change.passkeyName}».`;
  }
}

/**
 * A mature product's notice: a way into the account was added or removed. Someone who took a session could add their
 * own authenticator or passkey; the owner hears of it at once.
 */
export function securityChangeMail(options: Origin & { name: string; change: SecurityChange; portalUrl: string }) {
  return noticeMail({
    subject: 'Cambio en la seguridad de tu cuenta',
    name: options.name,
    intro: `${describeChange(options.change)} Se hizo desde esta sesión:`,
    lines: originLines(options),
    advice:
      'Si fuiste tú, no tienes que hacer nada. Si no fuiste tú, cambia tu contraseña ahora y revisa tus métodos de verificación y tus sesiones en Mi perfil > Seguridad.',
    linkText: 'Revisar la seguridad de mi cuenta',
    link: securityPage(options.portalUrl),
  });
}

/**
 * A web address, a `www.` name or a name.tld token (Acme.com, soporte.example.pe): what a mail client turns into a
 * link. "S.A.", "Ing. Ana" or "Cía." are not.
 */
const linkShape = /[a-z][a-z0-9+.-]*:\/\/|www\.|[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)*\.\p{L}{2,}(?![\p{L}\p{N}])/iu;

/** Whether a text someone typed would show as a link, or carry one, in a mail. */
export const looksLikeLink = (text: string) => linkShape.test(text);

const companyRoleLabels = { propietario: 'Propietario', administrador: 'Administrador', miembro: 'Miembro' } as const;

/**
 * An invitation to a company: who invited, the role, the code and the link that carries it, and when it expires. The
 * address may have no account yet, so nobody is greeted by name; the company's name and the inviter's were set by
 * administrators, not by whoever typed an address.
 */
export function companyInvitationMail(options: {
  email: string;
  company: string;
  /** Who invited: their name, which may be anything they typed, and their proved address. */
  invitedBy: { name: string; email: string };
  role: keyof typeof companyRoleLabels;
  code: string;
  expiresAt: Date;
  portalUrl: string;
}): MailContent {
  // Names are typed by people: one shaped like a link (a phishing line in a trusted mail) is left out, never shown.
  const inviter =
    options.invitedBy.name && !looksLikeLink(options.invitedBy.name)
      ? `${options.invitedBy.name} (${options.invitedBy.email})`
      : options.invitedBy.email;
  const company = looksLikeLink(options.company) ? 'una empresa del portal' : options.company;
  const url = new URL('/invitacion', options.portalUrl);
  url.searchParams.set('codigo', options.code);
  url.searchParams.set('email', options.email);
  const link = url.toString();
  const expires = new Intl.DateTimeFormat('es-ES', { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' }).format(
    options.expiresAt,
  );
  const intro = `${inviter} te invita a unirte a ${company} en el portal con el rol de ${companyRoleLabels[options.role]}.`;
  const use = 'Usa este código para aceptar la invitación:';
  const validity = `La invitación vence el ${expires} (UTC) y el código solo se puede usar una vez.`;
  const advice = 'Si aún no tienes cuenta, regístrate con este email desde el enlace: no necesitarás otro código.';
  const footer = 'Si no esperabas esta invitación, ignora este correo.';
  const text = [
    greeting(),
    '',
    intro,
    use,
    '',
    `    ${options.code}`,
    '',
    validity,
    advice,
    `Aceptar la invitación: ${link}`,
    '',
    footer,
  ].join('\n');
  const html = htmlPage([
    `<p style="margin:0 0 16px">${escapeHtml(greeting())}</p>`,
    `<p style="margin:0 0 16px">${escapeHtml(intro)}</p>`,
    `<p style="margin:0 0 24px">${escapeHtml(use)}</p>`,
    `<p style="margin:0 0 24px;font-size:32px;font-weight:bold;letter-spacing:8px;text-align:center">${escapeHtml(options.code)}</p>`,
    `<p style="margin:0 0 16px;color:#52606d">${escapeHtml(validity)}</p>`,
    `<p style="margin:0 0 24px">${escapeHtml(advice)}</p>`,
    `<p style="margin:0 0 24px"><a href="${escapeHtml(link)}" style="color:#1565c0">Aceptar la invitación</a></p>`,
    `<p style="margin:0;font-size:13px;color:#7b8794">${escapeHtml(footer)}</p>`,
  ]);
  return { subject: `Invitación a ${company}`, text, html };
}

/**
 * A company's SIEM destination paused after a day of failed deliveries: which one, the last error, and where to
 * resume it (what it missed is sent then). The company's name was set by administrators; one shaped like a link is
 * left out.
 */
export function auditStreamPausedMail(options: {
  name: string;
  company: string;
  companyId: number;
  destination: string;
  error: string;
  portalUrl: string;
}): MailContent {
  const company = looksLikeLink(options.company) ? 'tu empresa' : options.company;
  return noticeMail({
    subject: `El registro de actividad de ${company} dejó de enviarse a su SIEM`,
    name: options.name,
    intro: `El portal lleva 24 horas sin poder entregar el registro de actividad de ${company} a este destino, y lo ha pausado:`,
    lines: [`Destino: ${options.destination}`, `Último error: ${options.error}`],
    advice:
      'Nada se pierde: cuando el receptor vuelva a funcionar, reanuda el destino en Registro de actividad > Enviar a mi SIEM y recibirá todo lo que faltó, en orden.',
    linkText: 'Abrir la empresa en el portal',
    link: new URL(`/admin/empresas/${options.companyId}`, options.portalUrl).toString(),
  });
}
