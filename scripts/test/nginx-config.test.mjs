// deploy/nginx/render.mjs: what a site file makes of the template. nginx itself runs the result in
// api/test/balancer.test.ts.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { renderNginxConfig } from '../../deploy/nginx/render.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const example = JSON.parse(readFileSync(path.join(ROOT, 'deploy/nginx/site.example.json'), 'utf8'));

describe('deploy/nginx/render.mjs', () => {
  it('renders the example site with every value in place', () => {
    const config = renderNginxConfig(example);
    assert.doesNotMatch(config, /\{\{/);
    assert.match(config, /^user www-data;$/m);
    assert.match(config, /^ {4}ssl_certificate \/etc\/ssl\/portal\/fullchain\.pem;$/m);
    // A list writes its line once per item.
    for (const instance of example.api.instances)
      assert.match(config, new RegExp(`^ {8}server ${instance} max_fails=1 fail_timeout=5s;$`, 'm'));
    for (const origin of example.corsOrigins) assert.ok(config.includes(`"${origin}" $http_origin;`), origin);
    assert.equal(config.match(/^ {8}listen 443 ssl;$/gm)?.length, 6, 'the API and the five static parts');
  });

  it("writes the path into the access log, never the query (a provider's code, a token hint)", () => {
    const config = renderNginxConfig(example);
    const format = /log_format portal[^;]*;/s.exec(config)?.[0] ?? '';
    assert.match(format, /"uri":"\$uri"/);
    assert.doesNotMatch(format, /\$request_uri|\$args|\$query_string|\$request"|\$arg_/);
  });

  it('leaves out the lines of a null value or group: no user, no TLS', () => {
    const config = renderNginxConfig({ ...example, user: null, tls: null, listen: '127.0.0.1:8000' });
    assert.doesNotMatch(config, /^user /m);
    assert.doesNotMatch(config, /ssl_certificate/);
    assert.match(config, /^ {8}listen 127\.0\.0\.1:8000 default_server;$/m);
  });

  it('stops at a value the site lacks, naming it, and at one that would write directives of its own', () => {
    const { api, ...withoutApi } = example;
    assert.throws(() => renderNginxConfig(withoutApi), /Falta «api\.instances»/);
    assert.throws(
      () => renderNginxConfig({ ...example, api: { ...api, serverName: 'x; include /etc/passwd' } }),
      /«api\.serverName» no puede contener/,
    );
    assert.throws(() => renderNginxConfig({ ...example, workerProcesses: { n: 1 } }), /«workerProcesses» debe ser/);
  });
});
