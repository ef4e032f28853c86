// Unit and component tests of the browser packages (jsdom) and of @portal/contracts (plain Node: it must need no
// browser). The API has its own runner (node:test), e2e its own.
const { existsSync } = require('node:fs');

// A remote joins the unit suite as soon as its folder has a tsconfig.
const browserPackages = ['shared', 'host', 'remote-auth', 'remote-apps', 'remote-admin', 'remote-calculator'].filter(
  (dir) => existsSync(`${__dirname}/${dir}/tsconfig.json`),
);

/** @type {import('jest').Config} */
module.exports = {
  // A test's deadline, not a measure of speed: a full page rendered through jsdom takes seconds on a busy two-core
  // machine (CI runs this beside the API suites), and jest's default 5 s then failed tests that were right.
  testTimeout: 20_000,
  // Each file's seconds and the counts, for the summary of `npm test` (scripts/lib/test-report.mjs).
  reporters: ['default', '<rootDir>/scripts/jest/timings-reporter.js'],
  projects: [
    {
      displayName: 'contracts',
      rootDir: '<rootDir>/contracts',
      testEnvironment: 'node',
      testMatch: ['<rootDir>/src/**/__tests__/*.test.ts'],
      transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.test.json', diagnostics: false }] },
    },
    ...browserPackages.map((dir) => ({
      displayName: dir,
      rootDir: `<rootDir>/${dir}`,
      testEnvironment: '<rootDir>/../scripts/jest/jsdom-with-fetch.js',
      testMatch: ['<rootDir>/src/**/*.test.ts?(x)'],
      transform: {
        '^.+\\.tsx?$': ['ts-jest', { tsconfig: `<rootDir>/tsconfig.test.json`, diagnostics: false }],
        // ky ships only ES modules; jest runs CommonJS, so ky alone is compiled too.
        '/node_modules/ky/.+\\.js$': [
          'ts-jest',
          { tsconfig: { allowJs: true, module: 'commonjs' }, diagnostics: false },
        ],
      },
      transformIgnorePatterns: ['/node_modules/(?!ky/)'],
      moduleNameMapper: {
        '\\.(png|jpe?g|svg|webp|mp4)$': '<rootDir>/../scripts/jest/file-stub.js',
      },
      setupFilesAfterEnv: ['<rootDir>/../scripts/jest/setup.ts'],
    })),
  ],
};
