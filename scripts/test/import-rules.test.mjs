// The import boundaries, the API's and the browser's (a page folder imports no other), are Biome rules (biome.jsonc,
// `noRestrictedImports`), checked by `npm test`'s style step. This test shows each rule failing on a deliberate bad
// import and staying quiet on the allowed one: the repository's own biome.jsonc lints a throw-away tree that holds one
// file per case, at the path the rule names.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { ROOT } from '../lib/parts.mjs';

const BIOME = path.join(ROOT, 'node_modules/@biomejs/biome/bin/biome');

/** Each case: a file's path in the tree, what it imports, and the rule's message when the import is refused. */
const CASES = [
  { file: 'api/src/domain/accounts/probe.ts', from: 'fastify', refused: /domain imports neither/ },
  { file: 'api/src/domain/accounts/probe.ts', from: '../../routes/auth/index.js', refused: /domain imports neither/ },
  { file: 'api/src/domain/accounts/probe.ts', from: '../../plugins/app/tokens.js', refused: /domain imports neither/ },
  { file: 'api/src/domain/accounts/probe.ts', from: '../account-codes/codes.js', refused: null },
  // The order of the areas: a floor imports lower floors only, never its own or a higher one.
  { file: 'api/src/domain/accounts/probe.ts', from: '../companies/domains.js', refused: /Floor 4 of the domain/ },
  { file: 'api/src/domain/accounts/probe.ts', from: '../registration/activation.js', refused: /Floor 4 of the domain/ },
  { file: 'api/src/domain/accounts/probe.ts', from: '../audit/log.js', refused: null },
  { file: 'api/src/domain/audit/probe.ts', from: '../accounts/queries.js', refused: /Floor 1 of the domain/ },
  { file: 'api/src/domain/mail/probe.ts', from: '../clock.js', refused: null },
  { file: 'api/src/domain/sessions/probe.ts', from: '../second-factor/status.js', refused: /Floor 5 of the domain/ },
  { file: 'api/src/domain/user-directory/probe.ts', from: '../accounts/queries.js', refused: null },
  { file: 'api/src/domain/companies/probe.ts', from: './sso/connections.js', refused: /Floor 6 of the domain/ },
  {
    file: 'api/src/domain/companies/probe.ts',
    from: '../registration/activation.js',
    refused: /Floor 6 of the domain/,
  },
  { file: 'api/src/domain/companies/probe.ts', from: '../user-directory/queries.js', refused: null },
  {
    file: 'api/src/domain/identity-provider/probe.ts',
    from: '@portal/contracts/identity-provider/clients',
    refused: null,
  },
  // Inside identity-provider/, the doors (oidc/, saml/) stand on its root: never the other way, never each other.
  {
    file: 'api/src/domain/identity-provider/probe.ts',
    from: './oidc/provider.js',
    refused: /doors of identity-provider/,
  },
  { file: 'api/src/domain/identity-provider/probe.ts', from: './saml/apps.js', refused: /doors of identity-provider/ },
  { file: 'api/src/domain/identity-provider/oidc/probe.ts', from: '../saml/metadata.js', refused: /doors of/ },
  { file: 'api/src/domain/identity-provider/saml/probe.ts', from: '../oidc/clients.js', refused: /doors of/ },
  { file: 'api/src/domain/identity-provider/oidc/probe.ts', from: '../continuation.js', refused: null },
  { file: 'api/src/domain/identity-provider/oidc/probe.ts', from: './endpoints.js', refused: null },
  { file: 'api/src/domain/identity-provider/saml/probe.ts', from: '../../../lib/saml/xml.js', refused: null },
  { file: 'api/src/domain/identity-provider/oidc/probe.ts', from: '../../companies/domains.js', refused: /Floor 6/ },
  // The root file that imports a door all the same (biome.jsonc says why), and a door's file on the queue they share.
  { file: 'api/src/domain/identity-provider/consents.ts', from: './saml/consents.js', refused: null },
  { file: 'api/src/domain/identity-provider/oidc/logout-deliveries.ts', from: '../logout-queue.js', refused: null },
  { file: 'api/src/domain/registration/probe.ts', from: '../companies/sso/accounts.js', refused: /Floor 7/ },
  { file: 'api/src/domain/registration/probe.ts', from: '../companies/domains.js', refused: null },
  { file: 'api/src/domain/companies/sso/probe.ts', from: '../scim/users.js', refused: /Floor 8 of the domain/ },
  { file: 'api/src/domain/companies/sso/probe.ts', from: '../../registration/activation.js', refused: null },
  { file: 'api/src/domain/companies/sso/probe.ts', from: '../members.js', refused: null },
  { file: 'api/src/domain/probe.ts', from: './accounts/queries.js', refused: /tools .* import no area/ },
  { file: 'api/src/routes/auth/probe.ts', from: '../admin/index.js', refused: /route folder imports no other/ },
  {
    file: 'api/src/routes/auth/oauth/probe.ts',
    from: '../../users/index.js',
    refused: /route folder imports no other/,
  },
  { file: 'api/src/routes/auth/probe.ts', from: './passwords.js', refused: null },
  { file: 'api/src/routes/auth/probe.ts', from: '../../domain/accounts/status.js', refused: null },
  { file: 'api/src/cli/probe.ts', from: '../routes/admin/index.js', refused: /admin CLI uses api\/src\/domain/ },
  { file: 'api/src/cli/probe.ts', from: '../domain/accounts/status.js', refused: null },
  { file: 'api/src/lib/probe.ts', from: '@portal/shared', refused: /never imports the browser's package/ },
  { file: 'api/test/probe.ts', from: '@portal/shared/redirect', refused: /never imports the browser's package/ },
  { file: 'api/src/lib/probe.ts', from: '@portal/contracts/manifest', refused: null },
  {
    file: 'remote-admin/src/pages/apps/probe.ts',
    from: '../companies/CompanyPage',
    refused: /page folder imports no other page folder/,
  },
  {
    file: 'remote-admin/src/pages/apps/partner-events/probe.ts',
    from: '../../companies/CompanyPage',
    refused: /page folder imports no other page folder/,
  },
  {
    file: 'remote-apps/src/pages/apps/presentation/__tests__/probe.ts',
    from: '../../../plans/PlansPage',
    refused: /page folder imports no other page folder/,
  },
  { file: 'remote-auth/src/pages/login/probe.ts', from: '../../pages/register/RegisterPage', refused: /page folder/ },
  { file: 'remote-admin/src/pages/apps/partner-events/probe.ts', from: '../app-form', refused: null },
  { file: 'remote-admin/src/pages/apps/probe.ts', from: '../../components/StackedTable', refused: null },
  {
    file: 'remote-apps/src/pages/apps/presentation/__tests__/probe.ts',
    from: '../../../../testing/fixtures',
    refused: null,
  },
  { file: 'host/src/pages/__tests__/probe.ts', from: '../NotFoundPage', refused: null },
];

const dirs = /** @type {string[]} */ ([]);
after(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** Biome's findings, with the repository's configuration, for one file holding `import { probe } from '<from>'`. */
function lint(/** @type {string} */ file, /** @type {string} */ from) {
  const dir = mkdtempSync(path.join(tmpdir(), 'portal-import-rules-'));
  dirs.push(dir);
  copyFileSync(path.join(ROOT, 'biome.jsonc'), path.join(dir, 'biome.jsonc'));
  mkdirSync(path.join(dir, path.dirname(file)), { recursive: true });
  writeFileSync(path.join(dir, file), `import { probe } from '${from}';\n\nexport const used = probe;\n`);
  const result = spawnSync(process.execPath, [BIOME, 'lint', '--vcs-enabled=false', '--reporter=json', '.'], {
    cwd: dir,
    encoding: 'utf8',
  });
  const report = JSON.parse(result.stdout);
  return /** @type {{ category: string, message: string }[]} */ (report.diagnostics);
}

for (const { file, from, refused } of CASES) {
  test(`${file} importing '${from}': ${refused ? 'refused' : 'allowed'}`, () => {
    const findings = lint(file, from);
    const restricted = findings.filter(({ category }) => category === 'lint/style/noRestrictedImports');
    if (refused) {
      assert.equal(restricted.length, 1, JSON.stringify(findings));
      assert.match(restricted[0]?.message ?? '', refused);
    } else {
      assert.deepEqual(findings, []);
    }
  });
}

test('every area of api/src/domain stands on a floor of biome.jsonc', () => {
  const config = readFileSync(path.join(ROOT, 'biome.jsonc'), 'utf8');
  const placed = new Set([...config.matchAll(/"api\/src\/domain\/([^"]+)"/g)].map(([, glob]) => glob));
  const domain = path.join(ROOT, 'api/src/domain');
  const folders = (/** @type {string} */ dir) =>
    readdirSync(dir, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
  const missing = /** @type {string[]} */ ([]);
  if (!placed.has('*.ts')) missing.push('*.ts');
  for (const area of folders(domain)) {
    const subAreas = folders(path.join(domain, area));
    // An area with sub-areas (companies/sso/) places its own files and each sub-area apart.
    if (subAreas.length === 0) {
      if (!placed.has(`${area}/**`)) missing.push(`${area}/`);
      continue;
    }
    if (!placed.has(`${area}/*.ts`)) missing.push(`${area}/*.ts`);
    for (const sub of subAreas) if (!placed.has(`${area}/${sub}/**`)) missing.push(`${area}/${sub}/`);
  }
  assert.deepEqual(missing, []);
});
