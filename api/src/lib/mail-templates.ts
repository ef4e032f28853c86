/** A mail ready to queue: Spanish subject, plain text and HTML with the same content. */
export interface MailContent {
  subject: string;
  text: string;
  html: string;
}

const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

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
  const html = `<!doctype html>
<html lang="es">
<body style="margin:0;padding:24px;background:#f4f6f8;font-family:Arial,Helvetica,sans-serif;color:#1f2933">
  <div style="max-width:480px;margin:0 auto;background:#ffffff;border-radius:8px;padding:32px">
    <p style="margin:0 0 16px">${escapeHtml(mail.greeting)}</p>
    <p style="margin:0 0 24px">${escapeHtml(mail.intro)}</p>
    <p style="margin:0 0 24px;font-size:32px;font-weight:bold;letter-spacing:8px;text-align:center">${escapeHtml(mail.code)}</p>
    <p style="margin:0 0 24px;color:#52606d">El código vence en 10 minutos y solo se puede usar una vez.</p>
    <p style="margin:0 0 24px"><a href="${escapeHtml(mail.link)}" style="color:#1565c0">${escapeHtml(mail.action)}</a></p>
    <p style="margin:0;font-size:13px;color:#7b8794">${escapeHtml(mail.footer)}</p>
  </div>
</body>
</html>`;
  return { subject: mail.subject, text, html };
}

const greeting = (name: string) => (name.trim() ? `Hola, ${name.trim()}:` : 'Hola:');

function pageLink(portalUrl: string, path: string, email: string): string {
  const url = new URL(path, portalUrl);
  url.searchParams.set('email', email);
  return url.toString();
}

export function verificationCodeMail(options: {
  name: string;
  email: string;
  code: string;
  portalUrl: string;
}): MailContent {
  return codeMail({
    subject: `Tu código de verificación: ${options.code}`,
    greeting: greeting(options.name),
    intro: 'Usa este código para verificar tu email y activar tu cuenta del portal:',
    code: options.code,
    action: 'Ir a la verificación',
    link: pageLink(options.portalUrl, '/verify-email', options.email),
    footer: 'Si no creaste una cuenta, ignora este correo.',
  });
}

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

/** Issue 20: a sign-in from a device and browser this account never used before. */
export function newSignInMail(options: {
  name: string;
  device: string;
  browser: string;
  address: string;
  at: Date;
  portalUrl: string;
}): MailContent {
  const when = new Intl.DateTimeFormat('es-ES', { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' }).format(
    options.at,
  );
  const link = new URL('/perfil?tab=seguridad', options.portalUrl).toString();
  const lines = [
    `Dispositivo: ${options.device}`,
    `Navegador: ${options.browser}`,
    `Dirección: ${options.address}`,
    `Fecha: ${when} (UTC)`,
  ];
  const intro = 'Se ha iniciado sesión en tu cuenta del portal desde un dispositivo que no habías usado antes:';
  const advice =
    'Si fuiste tú, no tienes que hacer nada. Si no fuiste tú, cambia tu contraseña ahora y cierra esa sesión en Mi perfil > Seguridad.';
  const text = [greeting(options.name), '', intro, '', ...lines.map((line) => `    ${line}`), '', advice, link].join(
    '\n',
  );
  const html = `<!doctype html>
<html lang="es">
<body style="margin:0;padding:24px;background:#f4f6f8;font-family:Arial,Helvetica,sans-serif;color:#1f2933">
  <div style="max-width:480px;margin:0 auto;background:#ffffff;border-radius:8px;padding:32px">
    <p style="margin:0 0 16px">${escapeHtml(greeting(options.name))}</p>
    <p style="margin:0 0 16px">${escapeHtml(intro)}</p>
    <ul style="margin:0 0 24px">${lines.map((line) => `<li>${escapeHtml(line)}</li>`).join('')}</ul>
    <p style="margin:0 0 24px">${escapeHtml(advice)}</p>
    <p style="margin:0"><a href="${escapeHtml(link)}" style="color:#1565c0">Revisar mis sesiones</a></p>
  </div>
</body>
</html>`;
  return { subject: 'Nuevo inicio de sesión', text, html };
}
