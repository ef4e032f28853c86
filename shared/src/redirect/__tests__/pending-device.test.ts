import {
  devicePath,
  PENDING_DEVICE_KEY,
  PENDING_DEVICE_TTL_MS,
  storePendingDevice,
  takePendingDevice,
} from '../pending-device';

beforeEach(() => sessionStorage.clear());

describe('the device code a tab answers after a sign-in', () => {
  it('comes back to /dispositivo with its code, or without one', () => {
    expect(devicePath('BCDF-GHJK')).toBe('/dispositivo?codigo=BCDF-GHJK');
    expect(devicePath('')).toBe('/dispositivo');
  });

  it('is read once, and only while fresh', () => {
    storePendingDevice('bcdf ghjk', 1_000);
    expect(takePendingDevice(2_000)).toEqual({ codigo: 'bcdf ghjk' });
    expect(takePendingDevice(2_000)).toBeNull();
    storePendingDevice('BCDF-GHJK', 1_000);
    expect(takePendingDevice(1_000 + PENDING_DEVICE_TTL_MS)).toBeNull();
  });

  it('keeps nothing that cannot be a typed code, and reads nothing planted in another shape', () => {
    storePendingDevice('<script>', 1_000);
    expect(sessionStorage.getItem(PENDING_DEVICE_KEY)).toBeNull();
    sessionStorage.setItem(PENDING_DEVICE_KEY, JSON.stringify({ codigo: 'https://evil.example', at: 1_000 }));
    expect(takePendingDevice(2_000)).toBeNull();
    sessionStorage.setItem(PENDING_DEVICE_KEY, '{');
    expect(takePendingDevice(2_000)).toBeNull();
  });
});
