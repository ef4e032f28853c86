import { pauseButtonText, pauseLeft, remainingText, signInLockText } from './sign-in-lock';

// Local times: the text speaks the person's clock, whatever the machine's time zone.
const at = (hours: number, minutes: number, seconds = 0) => new Date(2026, 10, 25, hours, minutes, seconds);

it('says the local time the lock ends and how long is left, rounded up to the minute', () => {
  expect(signInLockText(900, at(14, 20))).toBe(
    'Por seguridad, los intentos desde este dispositivo están en pausa. Podrás intentarlo de nuevo a las 14:35 (en 15 minutos).',
  );
  expect(signInLockText(61, at(9, 5, 30))).toBe(
    'Por seguridad, los intentos desde este dispositivo están en pausa. Podrás intentarlo de nuevo a las 09:06 (en 2 minutos).',
  );
});

it('counts seconds under a minute, one and many', () => {
  expect(remainingText(1)).toBe('en 1 segundo');
  expect(remainingText(40)).toBe('en 40 segundos');
  expect(remainingText(60)).toBe('en 1 minuto');
  expect(signInLockText(0.2, at(10, 0))).toMatch(/a las 10:00 \(en 1 segundo\)\.$/);
});

it('names the date when the lock ends on another day', () => {
  expect(signInLockText(3600, at(23, 30))).toMatch(
    /Podrás intentarlo de nuevo el 26\/11\/2026 a las 00:30 \(en 60 minutos\)\.$/,
  );
});

it("the button's time left counts minutes and seconds, rounded up to the second", () => {
  expect(pauseButtonText(30)).toBe('Inténtalo de nuevo en 0:30');
  expect(pauseButtonText(900)).toBe('Inténtalo de nuevo en 15:00');
  expect(pauseButtonText(61.2)).toBe('Inténtalo de nuevo en 1:02');
  expect(pauseButtonText(0.1)).toBe('Inténtalo de nuevo en 0:01');
});

it('a pause holds for the address it was given for, typed with other capitals or spaces too', () => {
  const pause = { email: 'ana@example.com', until: 10_000 };
  expect(pauseLeft(pause, ' Ana@Example.com ', 0)).toBe(10);
  expect(pauseLeft(pause, 'ana@example.com', 9_001)).toBe(1);
  expect(pauseLeft(pause, 'ana@example.com', 10_000)).toBe(0);
  expect(pauseLeft(pause, 'otra@example.com', 0)).toBe(0);
  expect(pauseLeft(null, 'ana@example.com', 0)).toBe(0);
});
