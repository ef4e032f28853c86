import { holdEarlyInput, releaseEarlyInput } from '../early-input';

/** A prerendered `#root` with a sign-in form (its submit disabled, as React renders it empty) and a passkey button. */
function prerenderedPage() {
  document.body.innerHTML = `
    <div id="root" data-prerendered="/login">
      <form><input type="email" /><button type="submit" disabled>Iniciar Sesión</button></form>
      <button type="button">Iniciar sesión con llave de acceso</button>
    </div>`;
  const root = document.getElementById('root') as HTMLElement;
  const form = root.querySelector('form') as HTMLFormElement;
  const passkey = root.querySelector('button[type=button]') as HTMLButtonElement;
  return { root, form, passkey };
}

const pressEnter = (field: Element) =>
  field.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, cancelable: true }));

describe('early input on a prerendered page', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => {
    jest.useRealTimers();
    document.body.innerHTML = '';
  });

  it('presses the held button once React owns the page, and only then', () => {
    const { root, passkey } = prerenderedPage();
    const pressed = jest.fn();
    holdEarlyInput();
    passkey.click();
    passkey.addEventListener('click', pressed);
    const redo = releaseEarlyInput(root);
    root.removeAttribute('data-prerendered');
    redo();
    expect(pressed).not.toHaveBeenCalled();
    jest.runAllTimers();
    expect(pressed).toHaveBeenCalledTimes(1);
  });

  it('presses the button with the same label when React rendered the page anew', () => {
    const { root, passkey } = prerenderedPage();
    holdEarlyInput();
    passkey.click();
    const redo = releaseEarlyInput(root);
    root.innerHTML = '<button type="button">Iniciar sesión con llave de acceso</button>';
    const pressed = jest.fn();
    root.querySelector('button')?.addEventListener('click', pressed);
    redo();
    jest.runAllTimers();
    expect(pressed).toHaveBeenCalledTimes(1);
  });

  it('sends the form Enter was pressed in, though its submit button was disabled, and keeps the browser from posting it', () => {
    const { root, form } = prerenderedPage();
    holdEarlyInput();
    const field = form.querySelector('input') as HTMLInputElement;
    expect(pressEnter(field)).toBe(false);
    const sent = jest.fn((event: Event) => event.preventDefault());
    form.addEventListener('submit', sent);
    const redo = releaseEarlyInput(root);
    redo();
    jest.runAllTimers();
    expect(sent).toHaveBeenCalledTimes(1);
  });

  it('leaves input alone once released, and on a page that is not prerendered', () => {
    const { root, form, passkey } = prerenderedPage();
    holdEarlyInput();
    releaseEarlyInput(root)();
    const field = form.querySelector('input') as HTMLInputElement;
    expect(pressEnter(field)).toBe(true);
    holdEarlyInput();
    root.removeAttribute('data-prerendered');
    passkey.click();
    expect(pressEnter(field)).toBe(true);
    const pressed = jest.fn();
    passkey.addEventListener('click', pressed);
    releaseEarlyInput(root)();
    jest.runAllTimers();
    expect(pressed).not.toHaveBeenCalled();
  });
});
