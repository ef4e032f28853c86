// The rules the browser and the server both obey, free of React and of browser or Node globals. The start-up check of
// an allow-list (./redirect/allow-list-entries) is left out of this entry on purpose: it carries the Public Suffix
// List, which only the API and the launcher scripts need; they import it by its own path.
export * from './api/paths.ts';
export * from './apps/links.ts';
export * from './apps/role-key.ts';
export * from './identity-provider/clients.ts';
export * from './partner-events/event-types.ts';
export * from './passkeys/relying-party.ts';
export * from './portal/manifest.ts';
export * from './redirect/allow-list.ts';
export * from './redirect/defaults.ts';
export * from './users/picture.ts';
