import { lazyModule } from '../lazy-module';
import type * as Rules from './phone';

/** The phone rules (phone.ts) and the libphonenumber-js metadata they carry. */
export type PhoneRules = typeof Rules;

const rules = lazyModule<PhoneRules>(() => import(/* webpackChunkName: "phone-rules" */ './phone'));

/**
 * Loads the phone rules once, when they are first needed: /register's first step paints and answers without them,
 * and fetches them when the phone field gets the focus or the step is sent: the metadata is a large share of
 * /register's JavaScript and main-thread work (docs/decisions/0025-phone-numbers.md; figures in docs/benchmarks.md).
 * A chunk that could not be fetched is asked for again at the next call.
 */
export function loadPhoneRules(): Promise<PhoneRules> {
  return rules.load();
}

/** The phone rules if they are already loaded (loadPhoneRules), else undefined. */
export function loadedPhoneRules(): PhoneRules | undefined {
  return rules.loaded();
}
