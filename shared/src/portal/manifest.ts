// The host reads the portal's manifest as `@portal/shared/manifest`; the manifest itself is a contract the scripts and
// the API obey too, and lives in @portal/contracts.
export * from '@portal/contracts/manifest';
