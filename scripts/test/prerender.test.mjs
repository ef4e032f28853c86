// The build's prerender of the sign-in pages and the shell's frames (scripts/lib/prerender.mjs,
// host/prerender/render.tsx): each page's markup is the real form with its Spanish texts, each frame the top bar and
// 'Cargando...', styled by the rules that come with them, in the built page template.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { frameFile, pageDocument, renderPages } from '../lib/prerender.mjs';

/** @type {import('../lib/prerender.mjs').Rendered} */
let rendered;
/** @type {import('../lib/prerender.mjs').RenderedPage[]} */
let pages;
before(async () => {
  rendered = await renderPages();
  pages = rendered.pages;
});

const page = (/** @type {string} */ path) => {
  const found = pages.find((candidate) => candidate.path === path);
  assert.ok(found, `${path} prerendered`);
  return found;
};

/** The classes the markup uses that some rule of the page's <style> defines. */
const styledClasses = (/** @type {import('../lib/prerender.mjs').RenderedPage} */ rendered) =>
  [...rendered.html.matchAll(/class="([^"]+)"/g)]
    .flatMap((match) => (match[1] ?? '').split(' '))
    .filter((name) => rendered.styles.includes(`.${name}{`));

describe('prerendered sign-in pages', () => {
  it('/login: the form with its heading, labels and buttons, and the rules it uses', () => {
    const login = page('/login');
    assert.equal(login.title, 'Iniciar sesión · Portal');
    assert.match(login.html, /<h1[^>]*>Iniciar Sesión<\/h1>/);
    assert.match(login.html, /<label[^>]*>Email<\/label>/);
    assert.match(login.html, /<label[^>]*>Contraseña<\/label>/);
    assert.match(login.html, /<button type="submit"[^>]*>Iniciar Sesión<\/button>/);
    assert.match(login.html, />Continuar con Google</);
    assert.match(login.html, /href="\/register"/);
    assert.match(login.styles, /^<style data-styled="true"/);
    assert.ok(styledClasses(login).length >= 10, 'the markup is styled by the rules that come with it');
  });

  it('/register: step 1 of the form, with its labels and the phone country list', () => {
    const register = page('/register');
    assert.equal(register.title, 'Crear cuenta · Portal');
    assert.match(register.html, /<h1[^>]*>Crear cuenta<\/h1>/);
    for (const label of ['Email', 'Nombre', 'Apellido', 'Teléfono'])
      assert.match(register.html, new RegExp(`<label[^>]*>${label}</label>`));
    assert.match(register.html, />Siguiente</);
    assert.match(register.html, /<option value="PE" selected="">Perú/);
    // The other countries come with the browser's first render (remote-auth's PhoneField).
    assert.doesNotMatch(register.html, /Todos los países/);
    assert.ok(styledClasses(register).length >= 10, 'the markup is styled by the rules that come with it');
  });

  it('styled components carry their stable ids (file and place), the same in the browser builds', () => {
    assert.match(page('/login').html, /class="sc-[0-9a-f]{8} /);
  });

  it('goes into the page template: #root marked with the path, the title, the rules in the head', () => {
    const template =
      '<!doctype html><html><head><title>Portal</title><style>body{}</style></head><body>' +
      '<div id="root"><p class="portal-splash" aria-hidden="true">Portal</p></div></body></html>';
    const document = pageDocument(template, page('/login'));
    assert.match(document, /<title>Iniciar sesión · Portal<\/title>/);
    assert.match(document, /<style data-styled="true"[^>]*>[\s\S]*<\/style><\/head>/);
    assert.match(document, /<div id="root" data-prerendered="\/login"><!--\$--><main/);
    assert.doesNotMatch(document, /portal-splash" aria-hidden/);
  });
});

describe("the shell's frame of the user area and the admin panel", () => {
  const frame = (/** @type {string} */ path) => {
    const found = rendered.frames.find((candidate) => candidate.path === path);
    assert.ok(found, `${path} has a frame`);
    return found;
  };

  it('one for every page of the user area and the admin panel, none for a sign-in page', () => {
    const paths = rendered.frames.map((candidate) => candidate.path);
    for (const path of ['/', '/apps', '/apps/:id', '/planes', '/perfil', '/calculadora-txi', '/admin/usuarios'])
      assert.ok(paths.includes(path), path);
    for (const path of ['/login', '/register', '/verify-email', '/logout']) assert.ok(!paths.includes(path), path);
    assert.equal(rendered.sessionHint, 'portal_sesion');
  });

  it("a user page: the top bar with the page's own entry marked, and 'Cargando...' where the page will be", () => {
    const plans = frame('/planes');
    assert.equal(plans.title, 'Planes · Portal');
    assert.match(plans.html, /<header[^>]*>/);
    assert.match(plans.html, /<a aria-current="page"[^>]*href="\/planes"[^>]*>Planes<\/a>/);
    assert.doesNotMatch(plans.html, /aria-current="page"[^>]*>Aplicaciones</);
    assert.match(plans.html, /aria-label="Aplicaciones"/, 'the apps launcher');
    assert.match(plans.html, /Cargando\.\.\./);
    assert.ok(styledClasses(plans).length >= 5, 'the top bar is styled by the rules that come with it');
    // Nothing of a person: the frame is the same for everyone.
    assert.doesNotMatch(plans.html, /@|<img/);
    assert.match(frame('/apps/:id').html, /<a aria-current="page"[^>]*href="\/apps"[^>]*>Aplicaciones<\/a>/);
  });

  it("an admin page: 'Cargando...' alone (the panel's own frame comes with remote-admin)", () => {
    const admin = frame('/admin/usuarios');
    assert.equal(admin.title, 'Gestión de usuarios · Portal');
    assert.match(admin.html, /Cargando\.\.\./);
    assert.doesNotMatch(admin.html, /<header/);
  });

  it('each frame has a file of its own, named from its route', () => {
    assert.equal(frameFile('/'), '/_frames/inicio.html');
    assert.equal(frameFile('/apps/:id'), '/_frames/apps-id.html');
    assert.equal(frameFile('/admin/usuarios'), '/_frames/admin-usuarios.html');
    const files = rendered.frames.map((candidate) => frameFile(candidate.path));
    assert.equal(new Set(files).size, files.length);
  });
});
