// The build's prerender of the sign-in pages (scripts/lib/prerender.mjs, host/prerender/render.tsx): each page's
// markup is the real form with its Spanish texts, styled by the rules that come with it, in the built page template.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { pageDocument, renderPages } from '../lib/prerender.mjs';

/** @type {import('../lib/prerender.mjs').RenderedPage[]} */
let pages;
before(async () => {
  pages = await renderPages();
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
