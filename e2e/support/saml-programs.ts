// SAML software this project did not write, started as plain processes for one spec file: SimpleSAMLphp (Debian's
// `simplesamlphp`, 1.19) as a company's identity provider, served by PHP's own web server, and Apache with
// mod_auth_mellon (Debian's `apache2` and `libapache2-mod-auth-mellon`) as a partner app. Each gets a folder of its own
// under the system's temporary folder (configuration, keys, metadata, logs), readable by the user Apache serves as;
// `close()` stops the process and removes the folder, or keeps it (and says where) when asked to, after a failure.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

const SIMPLESAMLPHP_WWW = '/usr/share/simplesamlphp/www';
const APACHE = '/usr/sbin/apache2';
const APACHE_MODULES = '/usr/lib/apache2/modules';
const MELLON_CREATE_METADATA = '/usr/sbin/mellon_create_metadata';

/** A program the spec started: where it answers, its folder, and a way to stop it. */
export interface Started {
  folder: string;
  /** The program's logs, read now (for a failing test's report). */
  logs(): Record<string, string>;
  /** Stops the process; the folder stays when `keep` (a failed test's evidence), else it goes. */
  close(keep?: boolean): Promise<void>;
}

const INSTALL = 'apt-get install php-cli php-xml php-mbstring simplesamlphp apache2 libapache2-mod-auth-mellon';

/** Throws, saying what to install, when a program a spec runs is not on the machine. */
export function needs(files: string[], install = INSTALL, what = 'las pruebas SAML'): void {
  const missing = files.filter((file) => !existsSync(file));
  if (missing.length > 0) throw new Error(`Faltan ${missing.join(', ')} para ${what}: ${install}`);
}

export function folderFor(name: string): string {
  const folder = mkdtempSync(path.join(tmpdir(), `portal-${name}-`));
  // Apache started as root serves as www-data: it must read what is here.
  chmodSync(folder, 0o755);
  return folder;
}

export function write(file: string, text: string): void {
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o755 });
  writeFileSync(file, text, { mode: 0o644 });
  chmodSync(file, 0o644);
}

export function readLogs(folder: string, names: string[]): Record<string, string> {
  const logs: Record<string, string> = {};
  for (const name of names) {
    try {
      logs[name] = readFileSync(path.join(folder, name), 'utf8');
    } catch {
      logs[name] = '(sin registro)';
    }
  }
  return logs;
}

const startWithinMs = 45_000;

/** Runs `command` with its output in `logFile`, and answers once `url` answers (any status), or throws with the log. */
export async function startProcess(
  command: string,
  args: string[],
  options: { env?: Record<string, string>; logFile: string; url: string; name: string },
): Promise<ChildProcess> {
  await portFree(options.url);
  const out = openSync(options.logFile, 'a');
  const child = spawn(command, args, { env: { ...process.env, ...options.env }, stdio: ['ignore', out, out] });
  let exited: string | null = null;
  child.once('exit', (code, signal) => {
    exited = `salió con ${code ?? signal}`;
  });
  child.once('error', (error) => {
    exited = `no se pudo ejecutar: ${error.message}`;
  });
  // A bound for a program that will not start, not a target: Apache or PHP on a loaded machine can take many seconds.
  const deadline = Date.now() + startWithinMs;
  for (;;) {
    if (exited) break;
    try {
      await fetch(options.url, { redirect: 'manual', signal: AbortSignal.timeout(2_000) });
      return child;
    } catch {
      if (Date.now() > deadline) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  child.kill('SIGKILL');
  const log = readFileSync(options.logFile, 'utf8');
  throw new Error(
    `${options.name} no arrancó (${exited ?? `sin respuesta en ${startWithinMs / 1000} s`}) en ${options.url}:\n${log}`,
  );
}

/** Throws when something already listens where the program is to listen: its answers would not be the program's. */
async function portFree(url: string): Promise<void> {
  const { hostname, port } = new URL(url);
  const host = hostname === 'localhost' ? '127.0.0.1' : hostname;
  await new Promise<void>((resolve, reject) => {
    const probe = createServer();
    probe.once('error', () => reject(new Error(`el puerto ${host}:${port} ya está en uso`)));
    probe.listen(Number(port), host, () => probe.close(() => resolve()));
  });
}

export async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}

/** A self-signed RSA key and certificate (PEM), as an IdP administrator makes one for signing. */
function selfSignedCertificate(folder: string, name: string, commonName: string): { key: string; cert: string } {
  const key = path.join(folder, `${name}.key`);
  const cert = path.join(folder, `${name}.crt`);
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-sha256',
      '-days',
      '30',
      '-subj',
      `/CN=${commonName}`,
      '-keyout',
      key,
      '-out',
      cert,
    ],
    { stdio: 'ignore' },
  );
  chmodSync(key, 0o644);
  chmodSync(cert, 0o644);
  return { key, cert };
}

/** A PHP string literal (single-quoted: only the backslash and the quote are special). */
function php(value: string): string {
  return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

export interface IdpUser {
  username: string;
  password: string;
  /** The attributes SimpleSAMLphp releases, as its static user list holds them (`email`, `givenName`, `sn`…). */
  attributes: Record<string, string[]>;
}

export interface SimpleSamlIdp extends Started {
  /** The IdP's base URL; its entity ID is `${url}/saml2/idp/metadata.php`. */
  url: string;
  entityId: string;
  metadataUrl: string;
  /** The IdP's metadata XML, as its administrator hands it to a service provider. */
  metadata(): Promise<string>;
  /** Trusts a service provider from its metadata XML (SimpleSAMLphp reads its metadata files at every request). */
  trustServiceProvider(name: string, metadataXml: string): void;
  /** Adds a person to the static user list (read at every request too). */
  addUser(user: IdpUser): void;
}

/**
 * SimpleSAMLphp as a SAML 2.0 IdP on `host:port`, with a username-and-password source of static users (the
 * `exampleauth` module), its own signing key, and the service providers given by `trustServiceProvider`.
 */
export async function startSimpleSamlIdp(options: {
  port: number;
  host?: string;
  users: IdpUser[];
}): Promise<SimpleSamlIdp> {
  needs([SIMPLESAMLPHP_WWW, '/usr/bin/php', '/usr/bin/openssl']);
  const host = options.host ?? '127.0.0.1';
  const url = `http://${host}:${options.port}`;
  const folder = folderFor('simplesamlphp');
  const config = path.join(folder, 'config');
  const metadata = path.join(folder, 'metadata');
  for (const sub of ['config', 'metadata/sp', 'data', 'tmp', 'sessions', 'cert'])
    mkdirSync(path.join(folder, sub), { recursive: true, mode: 0o755 });
  const signing = selfSignedCertificate(path.join(folder, 'cert'), 'idp', host);
  const users = path.join(config, 'usuarios.json');
  write(users, JSON.stringify(options.users));
  const salt = execFileSync('openssl', ['rand', '-hex', '24'], { encoding: 'utf8' }).trim();

  write(
    path.join(config, 'config.php'),
    `<?php
$config = [
    'baseurlpath' => ${php(`${url}/`)},
    'certdir' => ${php(`${folder}/cert/`)},
    'loggingdir' => ${php(`${folder}/`)},
    'datadir' => ${php(`${folder}/data/`)},
    'tempdir' => ${php(`${folder}/tmp`)},
    'metadatadir' => ${php(`${metadata}/`)},
    'secretsalt' => ${php(salt)},
    'auth.adminpassword' => ${php(execFileSync('openssl', ['rand', '-hex', '16'], { encoding: 'utf8' }).trim())},
    'technicalcontact_name' => 'TI de la empresa',
    'technicalcontact_email' => 'ti@empresa.example',
    'timezone' => 'UTC',
    'logging.level' => SimpleSAML\\Logger::DEBUG,
    'logging.handler' => 'file',
    'logging.logfile' => 'simplesamlphp.log',
    'enable.saml20-idp' => true,
    'module.enable' => ['exampleauth' => true, 'core' => true, 'saml' => true],
    'store.type' => 'phpsession',
    // Plain http on loopback: no Secure cookie, and SameSite left to the browser's default.
    'session.cookie.secure' => false,
    'session.cookie.samesite' => null,
    'session.cookie.name' => 'EmpresaIdPSesion',
    'session.phpsession.cookiename' => 'EmpresaIdPPHP',
    'session.authtoken.cookiename' => 'EmpresaIdPToken',
];
`,
  );
  write(
    path.join(config, 'authsources.php'),
    `<?php
$usuarios = ['exampleauth:UserPass'];
foreach (json_decode(file_get_contents(__DIR__ . '/usuarios.json'), true) as $usuario) {
    $usuarios[$usuario['username'] . ':' . $usuario['password']] = $usuario['attributes'];
}
$config = ['usuarios' => $usuarios];
`,
  );
  write(
    path.join(metadata, 'saml20-idp-hosted.php'),
    `<?php
$metadata['__DYNAMIC:1__'] = [
    'host' => '__DEFAULT__',
    'privatekey' => ${php(signing.key)},
    'certificate' => ${php(signing.cert)},
    'auth' => 'usuarios',
    'signature.algorithm' => 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
    // A service provider that asks for an emailAddress NameID gets the person's email there (as AD FS sends it).
    'simplesaml.nameidattribute' => 'email',
];
`,
  );
  // The trusted service providers: every metadata file in metadata/sp, read as SimpleSAMLphp's metarefresh reads them.
  write(
    path.join(metadata, 'saml20-sp-remote.php'),
    `<?php
foreach (glob(__DIR__ . '/sp/*.xml') as $file) {
    foreach (\\SimpleSAML\\Metadata\\SAMLParser::parseDescriptorsFile($file) as $entity) {
        $sp = $entity->getMetadata20SP();
        if ($sp !== null) {
            $metadata[$sp['entityid']] = $sp;
        }
    }
}
`,
  );

  const metadataUrl = `${url}/saml2/idp/metadata.php`;
  const child = await startProcess(
    'php',
    [
      '-d',
      `session.save_path=${path.join(folder, 'sessions')}`,
      '-d',
      'display_errors=stderr',
      '-S',
      `${host}:${options.port}`,
      '-t',
      SIMPLESAMLPHP_WWW,
    ],
    {
      env: { SIMPLESAMLPHP_CONFIG_DIR: config },
      logFile: path.join(folder, 'php.log'),
      url: metadataUrl,
      name: 'SimpleSAMLphp',
    },
  );
  const logNames = ['php.log', 'simplesamlphp.log'];
  return {
    url,
    folder,
    entityId: metadataUrl,
    metadataUrl,
    async metadata() {
      const response = await fetch(metadataUrl);
      if (!response.ok) throw new Error(`SimpleSAMLphp metadata: ${response.status}`);
      return response.text();
    },
    trustServiceProvider(name, metadataXml) {
      write(path.join(metadata, 'sp', `${name.replace(/[^A-Za-z0-9_-]/g, '_')}.xml`), metadataXml);
    },
    addUser(user) {
      const list = JSON.parse(readFileSync(users, 'utf8')) as IdpUser[];
      write(users, JSON.stringify([...list.filter((known) => known.username !== user.username), user]));
    },
    logs: () => readLogs(folder, logNames),
    async close(keep = false) {
      await stopProcess(child);
      if (keep) console.log(`SimpleSAMLphp: su carpeta y registros quedan en ${folder}`);
      else rmSync(folder, { recursive: true, force: true });
    },
  };
}

export interface MellonSp {
  /** The app's protected page (`${url}${path}/`): shows the person's attributes once mellon let them in. */
  pageUrl: string;
  entityId: string;
  /** The SP metadata made by mellon_create_metadata: its ACS is `${url}${path}/mellon/postResponse`. */
  metadata: string;
  acsUrl: string;
}

/** Apache started for a spec: where it answers, and what it was asked. */
export interface ApacheProcess extends Started {
  url: string;
  /** Apache's access log lines (`METHOD path status`), to see whether an IdP ever posted to an app. */
  requests(): string[];
}

export interface MellonApache extends ApacheProcess {
  /** The SP at `/<name>/` (one of `apps`). */
  sp(name: string): MellonSp;
}

/**
 * A page of a partner app behind Apache: a server-side include prints the variables the authentication module set from
 * what the portal released (`fields`: each element's id and the variable it shows), and every variable below them.
 */
export function claimsPage(title: string, fields: [id: string, variable: string][]): string {
  return `<!doctype html>
<html lang="es"><head><meta charset="utf-8"><title>${title}</title></head><body>
<h1>${title}</h1>
<dl>
${fields.map(([id, variable]) => `<dt>${id}</dt><dd id="${id}"><!--#echo var="${variable}" --></dd>`).join('\n')}
</dl>
<pre id="variables"><!--#printenv --></pre>
</body></html>
`;
}

/**
 * A mellon SP whose endpoints are under `${at}/mellon` (`at` is '' or '/<name>'), its key, certificate and metadata made
 * by mellon_create_metadata in `spFolder`; answers it and the directives that set it up in a `<Location>`.
 */
export function mellonServiceProvider(options: {
  url: string;
  at: string;
  spFolder: string;
  idpFile: string;
  soapLogout?: boolean;
}): { sp: MellonSp; directives: string } {
  const { url, at, spFolder } = options;
  mkdirSync(spFolder, { recursive: true, mode: 0o755 });
  const entityId = `${url}${at}/mellon/metadata`;
  execFileSync(MELLON_CREATE_METADATA, [entityId, `${url}${at}/mellon`], { cwd: spFolder, stdio: 'ignore' });
  const base = readdirSync(spFolder)
    .find((file) => file.endsWith('.xml'))
    ?.replace(/\.xml$/, '');
  if (!base) throw new Error(`mellon_create_metadata no dejó metadatos en ${spFolder}`);
  if (options.soapLogout) {
    // mellon answers a SOAP LogoutRequest at its logout endpoint too; its generated metadata names only the
    // HTTP-Redirect binding there: this is the line an administrator adds by hand for an IdP that logs out without
    // a browser.
    const file = path.join(spFolder, `${base}.xml`);
    const soap = `<SingleLogoutService Binding="urn:oasis:names:tc:SAML:2.0:bindings:SOAP" Location="${url}${at}/mellon/logout"/>`;
    writeFileSync(
      file,
      readFileSync(file, 'utf8').replace(/(\s*)<SingleLogoutService /, `$1${soap}$1<SingleLogoutService `),
    );
  }
  for (const file of readdirSync(spFolder)) chmodSync(path.join(spFolder, file), 0o644);
  return {
    sp: {
      pageUrl: `${url}${at}/`,
      entityId,
      metadata: readFileSync(path.join(spFolder, `${base}.xml`), 'utf8'),
      acsUrl: `${url}${at}/mellon/postResponse`,
    },
    directives: `MellonSPPrivateKeyFile ${path.join(spFolder, `${base}.key`)}
    MellonSPCertFile ${path.join(spFolder, `${base}.cert`)}
    MellonSPMetadataFile ${path.join(spFolder, `${base}.xml`)}
    MellonIdPMetadataFile ${options.idpFile}
    MellonEndpointPath ${at}/mellon
    # mellon 0.18 marks its cookie SameSite=None, which a browser keeps only with Secure; on loopback http a browser
    # takes Secure cookies from localhost, as a partner's https site would be.
    MellonSecureCookie On`,
  };
}

/**
 * Apache (one process, -X) on `host:port` serving `folder`/htdocs with server-side includes (`index.shtml`), the
 * modules every app here needs and `modules` besides, and `locations` (its authentication module's configuration).
 */
export async function startApache(options: {
  name: string;
  folder: string;
  host: string;
  port: number;
  modules: [name: string, file: string][];
  logLevel: string;
  locations: string;
}): Promise<ApacheProcess> {
  const { folder, host } = options;
  const url = `http://${host}:${options.port}`;
  for (const sub of ['htdocs', 'logs', 'run']) mkdirSync(path.join(folder, sub), { recursive: true, mode: 0o755 });
  const modules = [
    ['mpm_prefork_module', 'mod_mpm_prefork.so'],
    ['authz_core_module', 'mod_authz_core.so'],
    ['authn_core_module', 'mod_authn_core.so'],
    ['authz_user_module', 'mod_authz_user.so'],
    ['mime_module', 'mod_mime.so'],
    ['dir_module', 'mod_dir.so'],
    ['include_module', 'mod_include.so'],
    ...options.modules,
  ];
  const asRoot = process.getuid?.() === 0;
  const configFile = path.join(folder, 'httpd.conf');
  write(
    configFile,
    `ServerRoot ${folder}
ServerName ${host}
Listen ${host === 'localhost' ? '127.0.0.1' : host}:${options.port}
PidFile ${path.join(folder, 'run', 'httpd.pid')}
DefaultRuntimeDir ${path.join(folder, 'run')}
${modules.map(([name, file]) => `LoadModule ${name} ${APACHE_MODULES}/${file}`).join('\n')}
${asRoot ? 'User www-data\nGroup www-data' : ''}
ErrorLog ${path.join(folder, 'logs', 'error.log')}
LogLevel ${options.logLevel}
LogFormat "%m %U %>s" corto
CustomLog ${path.join(folder, 'logs', 'access.log')} corto
# One process (-X) answers one connection at a time: a browser's idle kept-alive connection would hold the IdP's
# back-channel calls (a SOAP logout) waiting.
KeepAlive Off
TypesConfig /etc/mime.types
DocumentRoot ${path.join(folder, 'htdocs')}
DirectoryIndex index.shtml
<Directory ${path.join(folder, 'htdocs')}>
    Require all granted
    Options +Includes
    AddType "text/html; charset=utf-8" .shtml
    AddOutputFilter INCLUDES .shtml
</Directory>
${options.locations}
`,
  );
  const child = await startProcess(APACHE, ['-f', configFile, '-X'], {
    logFile: path.join(folder, 'logs', 'stdout.log'),
    url: `${url}/`,
    name: options.name,
  });
  return {
    url,
    folder,
    requests() {
      try {
        return readFileSync(path.join(folder, 'logs', 'access.log'), 'utf8')
          .split('\n')
          .filter(Boolean);
      } catch {
        return [];
      }
    },
    logs: () => readLogs(folder, ['logs/stdout.log', 'logs/error.log', 'logs/access.log']),
    async close(keep = false) {
      await stopProcess(child);
      if (keep) console.log(`${options.name}: su carpeta y registros quedan en ${folder}`);
      else rmSync(folder, { recursive: true, force: true });
    },
  };
}

/**
 * Apache with mod_auth_mellon on `host:port`: for each name in `apps`, a protected location `/<name>/` with a mellon
 * SP of its own (key, certificate and metadata from mellon_create_metadata) trusting the IdP whose metadata XML is
 * `idpMetadata`. The protected page prints the `MELLON_*` variables mellon sets from the assertion (a server-side
 * include), each in an element whose id is the attribute's name.
 */
export async function startMellon(options: {
  port: number;
  host?: string;
  idpMetadata: string;
  apps: string[];
  /** Shown in the page's fields, in this order; every MELLON_ variable is listed below them too. */
  attributes: string[];
  /**
   * Whether the SPs' metadata publishes their logout endpoint with the SOAP binding too (all, or the apps named);
   * without it, an SP's metadata is mellon's own: its logout by HTTP-Redirect only.
   */
  soapLogout?: boolean | string[];
}): Promise<MellonApache> {
  needs([APACHE, `${APACHE_MODULES}/mod_auth_mellon.so`, MELLON_CREATE_METADATA]);
  const host = options.host ?? 'localhost';
  const url = `http://${host}:${options.port}`;
  const folder = folderFor('mellon');
  const idpFile = path.join(folder, 'idp-metadata.xml');
  write(idpFile, options.idpMetadata);

  const sps: Record<string, MellonSp> = {};
  const locations: string[] = [];
  for (const app of options.apps) {
    const { sp, directives } = mellonServiceProvider({
      url,
      at: `/${app}`,
      spFolder: path.join(folder, 'sp', app),
      idpFile,
      soapLogout:
        options.soapLogout === true || (Array.isArray(options.soapLogout) && options.soapLogout.includes(app)),
    });
    sps[app] = sp;
    write(
      path.join(folder, 'htdocs', app, 'index.shtml'),
      claimsPage(
        `App SAML ${app}`,
        options.attributes.map((name) => [name, `MELLON_${name}`]),
      ),
    );
    locations.push(`<Location /${app}>
    MellonEnable auth
    AuthType Mellon
    Require valid-user
    MellonVariable ${app}
    ${directives}
</Location>`);
  }

  const apache = await startApache({
    name: 'Apache con mod_auth_mellon',
    folder,
    host,
    port: options.port,
    modules: [['auth_mellon_module', 'mod_auth_mellon.so']],
    logLevel: 'warn auth_mellon:debug',
    locations: locations.join('\n'),
  });
  return {
    ...apache,
    sp(name) {
      const found = sps[name];
      if (!found) throw new Error(`mellon no tiene la app ${name}`);
      return found;
    },
  };
}
