// The lock file's other platforms (scripts/lock-platforms.mjs): what a binary's name says, and what is added.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { completeLock, platformOf } from '../lock-platforms.mjs';

test('reads os, cpu and libc from the names platform binaries use', () => {
  assert.deepEqual(platformOf('@biomejs/cli-darwin-arm64'), { os: ['darwin'], cpu: ['arm64'] });
  assert.deepEqual(platformOf('@biomejs/cli-linux-x64-musl'), { os: ['linux'], cpu: ['x64'], libc: ['musl'] });
  assert.deepEqual(platformOf('@rspack/binding-linux-x64-gnu'), { os: ['linux'], cpu: ['x64'], libc: ['glibc'] });
  assert.deepEqual(platformOf('@rspack/binding-win32-ia32-msvc'), { os: ['win32'], cpu: ['ia32'] });
  assert.deepEqual(platformOf('@rspack/binding-wasm32-wasi'), { cpu: ['wasm32'] });
  assert.equal(platformOf('@types/node'), null);
});

test('adds only the missing pinned platform binaries, and leaves what npm wrote alone', () => {
  const written = {
    version: '2.6.8',
    dev: true,
    optional: true,
    os: ['linux'],
    cpu: ['x64'],
    libc: ['glibc'],
    integrity: 'sha512-x',
  };
  /** @type {Parameters<typeof completeLock>[0]} */
  const lock = {
    packages: {
      '': { name: 'portal' },
      'node_modules/@biomejs/biome': {
        version: '2.6.8',
        dev: true,
        optionalDependencies: { '@biomejs/cli-linux-x64': '2.6.8', '@biomejs/cli-darwin-arm64': '2.6.8' },
      },
      'node_modules/@biomejs/cli-linux-x64': written,
      'node_modules/some-lib': { version: '1.0.0', optionalDependencies: { fsevents: '^2.3.0' } },
    },
  };
  assert.deepEqual(completeLock(lock), ['@biomejs/cli-darwin-arm64@2.6.8']);
  assert.deepEqual(lock.packages['node_modules/@biomejs/cli-darwin-arm64'], {
    version: '2.6.8',
    dev: true,
    optional: true,
    os: ['darwin'],
    cpu: ['arm64'],
  });
  assert.equal(lock.packages['node_modules/@biomejs/cli-linux-x64'], written);
  assert.equal(lock.packages['node_modules/fsevents'], undefined, 'a range is not a platform binary this adds');
  assert.deepEqual(completeLock(lock), [], 'a second run adds nothing');
});
